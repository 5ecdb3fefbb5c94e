import { listProducts } from '../../api/products';
import { useResource } from '../../api/use-resource';
import { consolePath, Link } from '../../router';
import { Loaded } from '../loading';

/** The organization's products and the built-in `default`, each a link to its latest version. */
export const ProductsPage = () => {
  const products = useResource('products', (signal) => listProducts(1, signal));
  return (
    <>
      <h1 tabIndex={-1}>Products</h1>
      <Loaded resource={products} what="the products">
        {(list) => (
          <div class="table-scroll">
            <table data-products data-products-total={list.total}>
              <caption>Products</caption>
              <thead>
                <tr>
                  <th scope="col">Product</th>
                  <th scope="col">Latest version</th>
                  <th scope="col" class="number">
                    Versions
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((product) => {
                  const latest = product.versions.at(-1);
                  return (
                    <tr key={product.product_id} data-product={product.product_id}>
                      <th scope="row">
                        <Link href={consolePath(`/products/${encodeURIComponent(product.product_id)}`)}>
                          {product.product_id}
                        </Link>
                        {product.built_in && ' (built in)'}
                      </th>
                      <td>{latest === undefined ? '—' : `${latest.name} (${latest.status})`}</td>
                      <td class="number">{product.versions.length}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </>
  );
};
