import { useEffect } from 'preact/hooks';
import { SignIn } from './pages/sign-in';
import { consolePath, Link, matchRoute, usePlace } from './router';
import { ROUTES } from './routes';
import { signOut, useSession } from './session';

/** The frame of every page: a skip link, the header, and the page of the address — once signed in. */
export const Console = () => {
  const session = useSession();
  const place = usePlace();
  const matched = matchRoute(ROUTES, place.path);
  // A new page takes the focus at its heading, so keyboard and screen reader users start there.
  useEffect(() => {
    if (session.token !== null) document.querySelector<HTMLElement>('main h1')?.focus();
  }, [place.path, session.token]);

  if (session.token === null) return <SignIn refusal={session.refusal} />;
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to the page
      </a>
      <header class="console-header">
        <Link class="brand" href={consolePath('/')}>
          CropCover console
        </Link>
        <nav aria-label="Console">
          <Link href={consolePath('/')}>Policies</Link>
          <Link href={consolePath('/programmes')}>Programmes</Link>
          <Link href={consolePath('/products')}>Products</Link>
        </nav>
        <button type="button" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main id="main">
        {matched ? (
          matched.route.page(matched.params, place.query)
        ) : (
          <>
            <h1 tabIndex={-1}>Not found</h1>
            <p>
              The console has no page at this address. <Link href={consolePath('/')}>See the policies.</Link>
            </p>
          </>
        )}
      </main>
    </>
  );
};
