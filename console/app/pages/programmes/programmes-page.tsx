import { listProgrammes } from '../../api/programmes';
import { useResource } from '../../api/use-resource';
import { money } from '../../format';
import { consolePath, Link } from '../../router';
import { Loaded } from '../loading';

/** The organization's programmes, each a link to its page. */
export const ProgrammesPage = () => {
  const programmes = useResource('programmes', (signal) => listProgrammes(1, signal));
  return (
    <>
      <h1 tabIndex={-1}>Programmes</h1>
      <Loaded resource={programmes} what="the programmes">
        {(list) =>
          list.items.length === 0 ? (
            <p data-programmes-total={0}>No programme is visible to you.</p>
          ) : (
            <div class="table-scroll">
              <table data-programmes data-programmes-total={list.total}>
                <caption>Programmes</caption>
                <thead>
                  <tr>
                    <th scope="col">Programme</th>
                    <th scope="col">Currency</th>
                    <th scope="col" class="number">
                      Aggregate limit
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((programme) => (
                    <tr key={programme.programme_id} data-programme={programme.programme_id}>
                      <th scope="row">
                        <Link href={consolePath(`/programmes/${encodeURIComponent(programme.programme_id)}`)}>
                          {programme.name}
                        </Link>
                        {programme.is_default && ' (default)'}
                      </th>
                      <td>{programme.currency}</td>
                      <td class="number">
                        {programme.aggregate_limit === null
                          ? 'none'
                          : money(programme.aggregate_limit, programme.currency)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </>
  );
};
