// The game API: every call the page makes goes through api(), which turns a
// refusal into an ApiError carrying the server's words and rule.

export class ApiError extends Error {
  constructor(message, status, rule) {
    super(message);
    this.status = status;
    this.rule = rule;
  }
}

export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("The game server cannot be reached. Is it still running?", 0, "network");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(data?.detail ?? `The server answered ${response.status}.`, response.status, data?.rule);
  }
  return data;
}

// A review answers 202 "analysing" until it is ready: api() returns either body.
export const getReview = (path) => api("GET", path);
