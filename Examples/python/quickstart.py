"""Courier from Python: a client with a Python interceptor, a JSON POST and a typed error.

    python quickstart.py http://127.0.0.1:8080     # against `courier serve --port 8080`
"""
import sys
import time

import courier


class WaitForServer:
    """An `around` interceptor: retries a refused connection for up to 30 s while the server starts."""

    def around(self, request, call_next):
        deadline = time.monotonic() + 30
        while True:
            try:
                return call_next(request)
            except courier.ConnectError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)


class Stamp:
    """Signs every request in place, as a C plugin would."""

    def on_request(self, exchange):
        exchange.request.headers["X-Stamp"] = f"attempt-{exchange.attempt}"


base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
with courier.Client(base_url=base_url, timeout=10, interceptors=[WaitForServer(), Stamp()]) as client:
    response = client.post("/anything/users", params={"lang": "en"}, json={"name": "Ada"})
    response.raise_for_status()
    echoed = response.json()
    print(response.status_code, echoed["method"], echoed["path"], echoed["query"])
    print("X-Stamp:", echoed["headers"]["X-Stamp"])
    try:
        client.get("/delay/2000", timeout=0.2)
    except courier.TimeoutException as error:
        print("timed out as asked:", type(error).__name__)
