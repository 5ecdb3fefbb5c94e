import { useState } from 'preact/hooks';
import { signIn } from '../session';

/** The token field, as /docs has: the console is signed in with the bearer tokens the API takes. */
export const SignIn = ({ refusal }: { refusal: string | null }) => {
  const [token, setToken] = useState('');
  return (
    <main id="main" class="sign-in">
      <h1>Sign in</h1>
      <p>
        Paste a bearer token of the CropCover API. The console shows only what the API answers for it, and keeps it in
        this tab until you sign out or close the tab.
      </p>
      {refusal && (
        <p role="alert" class="problem">
          {refusal}
        </p>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = token.trim().replace(/^Bearer\s+/i, '');
          if (trimmed !== '') signIn(trimmed);
        }}
      >
        <label for="token">Bearer token</label>
        <textarea
          id="token"
          name="token"
          rows={4}
          required
          autocomplete="off"
          spellcheck={false}
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
};
