// Sign-in: locally a name (POST /local/token); in the cloud the user pool's authorization code grant with PKCE
// (RFC 7636, S256). The token lives in sessionStorage: it ends with the tab, and no other site can read it.

const TOKEN_KEY = "tourney.token";
const PKCE_KEY = "tourney.pkce";

/** base64url without padding (RFC 4648 §5). */
export function base64url(bytes) {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A code verifier: 32 random bytes, 43 base64url characters (RFC 7636 §4.1). */
export function codeVerifier() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The S256 code challenge of a verifier: base64url(sha256(ascii(verifier))) (RFC 7636 §4.2). */
export async function codeChallenge(verifier) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(digest);
}

/** The claims of a JWT (not verified here: the API verifies every request). */
export function claims(token) {
  const part = token.split(".")[1] || "";
  const padded = part.replaceAll("-", "+").replaceAll("_", "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0))));
}

function groupsOf(value) {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string") return value.replace(/^\[|\]$/g, "").split(/[\s,]+/).filter(Boolean);
  return [];
}

/** The signed-in caller: {token, player (the API's id), name (to show), operator}, or null (none, or expired). */
export function session() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return null;
  try {
    const c = claims(token);
    if (c.exp && c.exp * 1000 < Date.now()) {
      sessionStorage.removeItem(TOKEN_KEY);
      return null;
    }
    // the player is who the API takes the token for: `sub`, else `username` (entrypoints/auth.py); in the user
    // pool `sub` is an id and the name signed in with is `username` (access token) or `cognito:username` (ID token)
    const player = c.sub || c.username;
    const name = c.username || c["cognito:username"] || player;
    return { token, player, name, operator: groupsOf(c["cognito:groups"]).includes("operators") };
  } catch {
    sessionStorage.removeItem(TOKEN_KEY);
    return null;
  }
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Local sign-in: the local stack mints the token for a name (docs/interfaces.md, 'Web client'). */
export async function signInLocal(config, player, operator) {
  const response = await fetch(`${config.api.replace(/\/$/, "")}/local/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ player, operator: Boolean(operator) }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok || !answer.token) throw new Error(answer.message || `sign-in refused (${response.status})`);
  sessionStorage.setItem(TOKEN_KEY, answer.token);
  return session();
}

/** The user pool's authorize URL for a fresh verifier and state (kept in sessionStorage for the way back). */
export async function authorizeUrl(auth) {
  const verifier = codeVerifier();
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  sessionStorage.setItem(PKCE_KEY, JSON.stringify({ verifier, state }));
  const query = new URLSearchParams({
    response_type: "code",
    client_id: auth.client_id,
    redirect_uri: auth.redirect_uri,
    scope: (auth.scopes || ["openid"]).join(" "),
    state,
    code_challenge: await codeChallenge(verifier),
    code_challenge_method: "S256",
  });
  return `${auth.domain.replace(/\/$/, "")}/oauth2/authorize?${query}`;
}

/**
 * Back from the user pool with `?code=&state=`: check the state, exchange the code and the verifier for tokens.
 * Returns the session, or null when the URL carries no code. Throws on a state mismatch or a refused exchange.
 */
export async function completeSignIn(auth, location, fetcher = fetch) {
  const params = new URLSearchParams(location.search);
  const error = params.get("error");
  if (error) throw new Error(params.get("error_description") || error);
  const code = params.get("code");
  if (!code) return null;
  const stored = JSON.parse(sessionStorage.getItem(PKCE_KEY) || "null");
  sessionStorage.removeItem(PKCE_KEY);
  if (!stored || !stored.state || stored.state !== params.get("state")) {
    throw new Error("the sign-in answer does not match this tab's request (state)");
  }
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    client_id: auth.client_id,
    code,
    redirect_uri: auth.redirect_uri,
    code_verifier: stored.verifier,
  });
  const response = await fetcher(`${auth.domain.replace(/\/$/, "")}/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  const tokens = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(tokens.error_description || tokens.error || "the token exchange was refused");
  const token = auth.token_use === "id" ? tokens.id_token : tokens.access_token;
  if (!token) throw new Error("the user pool sent no token");
  sessionStorage.setItem(TOKEN_KEY, token);
  return session();
}

/** Where signing out of the user pool goes (its /logout, back to the app). */
export function logoutUrl(auth) {
  const query = new URLSearchParams({ client_id: auth.client_id, logout_uri: auth.redirect_uri });
  return `${auth.domain.replace(/\/$/, "")}/logout?${query}`;
}
