// Calls of a page's own session routes. The page never holds a token: the browser sends the
// HttpOnly session cookie by itself, and the page adds the session's CSRF token to every call
// (the server asks for it on every call that changes something, and on "Try it").

let csrf = null;

export const setCsrf = (token) => {
  csrf = token;
};
export const signedIn = () => csrf !== null;

/** { status, json, headers } of one call; a JSON body for a method that has one. */
export async function api(method, path, body) {
  const headers = {};
  if (csrf !== null) headers['x-csrf-token'] = csrf;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const text = res.status === 204 ? '' : await res.text();
  let json = null;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, headers: res.headers };
}

/** The error message of a failed call, as the API wrote it. */
export const messageOf = (answer) => answer.json?.error?.message ?? `failed (${answer.status})`;
