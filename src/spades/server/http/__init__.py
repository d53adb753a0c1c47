"""The HTTP plumbing every route stands on: the same-origin guard, the headers
every answer carries, the secret cookies, the rate and size limits, and the
test-only hook that holds a request in flight."""
