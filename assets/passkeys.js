// Passkeys on /signin and /account (issue 31): shows the passkey button when the browser has
// WebAuthn, runs the ceremony with @simplewebauthn/browser (served as /assets/webauthn.js), and
// posts the result to this site with the page's CSRF token. Without this script the pages work
// as before: the e-mailed code signs in.
(() => {
  const lib = window.SimpleWebAuthnBrowser;
  const box = document.querySelector('[data-passkey]');
  if (!box || !lib?.browserSupportsWebAuthn()) return;
  box.hidden = false;
  const button = box.querySelector('button');
  const status = box.querySelector('[data-passkey-status]');
  const register = box.dataset.passkey === 'register';
  const base = register ? '/account/passkeys' : '/signin/passkey';
  const post = (url, body) =>
    fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ _csrf: box.dataset.csrf, ...body }),
    });
  const answer = async (response) => {
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw { said: body.message || box.dataset.failed };
    return body;
  };
  button.addEventListener('click', async () => {
    status.textContent = '';
    button.disabled = true;
    try {
      const optionsJSON = await answer(await post(`${base}/options`, {}));
      const credential = register
        ? await lib.startRegistration({ optionsJSON })
        : await lib.startAuthentication({ optionsJSON });
      const name = register ? box.querySelector('input[name=passkey_name]').value : undefined;
      const done = await answer(await post(base, { credential, name }));
      window.location.assign(done.location);
    } catch (error) {
      // What this site said, in the page's language; the browser's own errors (cancelled, timed
      // out) are in its words, so the page says its own.
      status.textContent = error?.said ?? box.dataset.failed;
      button.disabled = false;
    }
  });
})();
