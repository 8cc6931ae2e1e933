"""``--dask``: a dask.distributed client that never waits for ever, and says why in one line.

The command line's ``preflop --dask`` and the builder's ``--dask`` (strength
and bucket tables on a cluster) both connect through it. It imports nothing
of the package, so every floor may use it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DASK_TIMEOUT", "check_dask", "dask_client"]

#: Seconds ``preflop --dask`` waits for the scheduler to answer, and then for a worker.
DASK_TIMEOUT = 30.0


def check_dask(address: str | None, timeout: float | None) -> float:
    """The timeout (default :data:`DASK_TIMEOUT`), with it and the address checked as :func:`dask_client` takes them.

    Nothing is reached: a command checks its ``--dask`` and ``--dask-timeout``
    with this before any work, and ``address`` None checks the timeout alone.

    >>> check_dask(None, None)
    30.0
    >>> check_dask(None, 0)
    Traceback (most recent call last):
    ...
    ValueError: --dask-timeout must be a number of seconds above 0 and at most 86400, got 0
    """
    if timeout is None:
        timeout = DASK_TIMEOUT
    elif not 0 < timeout <= 86400:  # also refuses nan; a day is far enough, and larger ones overflow timers
        raise ValueError(f"--dask-timeout must be a number of seconds above 0 and at most 86400, got {timeout:g}")
    if address is None:
        return timeout
    try:
        from distributed.comm.addressing import get_address_host_port
    except ImportError:
        raise ValueError("--dask needs dask.distributed: pip install 'twoplustwo[dask]'") from None
    if not address.strip():
        raise ValueError(f"--dask needs a scheduler address such as tcp://host:8786, got {address!r}")
    try:
        port = get_address_host_port(address)[1]
    except ValueError as e:
        raise ValueError(f"--dask {address!r} is not a scheduler address such as tcp://host:8786: {e}") from None
    if not 0 < port < 65536:
        raise ValueError(f"--dask {address!r}: port {port} is not in 1..65535")
    return timeout


def dask_client(address: str, timeout: float | None) -> Any:
    """A client of the dask scheduler at ``address`` once it has a worker (for ``preflop --dask``).

    Reaching the scheduler, the client's handshake and the wait for a worker
    each take at most ``timeout`` seconds (default :data:`DASK_TIMEOUT`),
    whatever the other end does; every failure is one error naming the address.
    """
    timeout = check_dask(address, timeout)
    import asyncio

    from distributed import Client
    from distributed.comm.core import connect

    async def handshake() -> None:
        # Client's own timeout covers only the TCP connect: a server that
        # accepts and then says nothing would hold its handshake forever.
        comm = await asyncio.wait_for(connect(address, timeout=timeout), timeout)  # type: ignore[no-untyped-call]
        await comm.close()

    try:
        asyncio.run(handshake())
        client = Client(address, timeout=timeout)  # type: ignore[no-untyped-call]
    except (OSError, asyncio.TimeoutError):
        # Refused, unreachable or unresolved (dask retries these until the
        # timeout), silent, or hung up: no scheduler answered, all the same.
        raise OSError(f"no dask scheduler answered at {address} within {timeout:g} s (--dask-timeout)") from None
    except ImportError as e:  # the scheduler's word on mismatched versions
        raise OSError(f"cannot use the dask scheduler at {address}: {e}") from None
    except Exception:
        # dask reads a length prefix first, which other bytes (an SSH banner,
        # an HTTP reply) make a nonsense size: a refused allocation of
        # exabytes, or garbled frames, or a message that is not a dict.
        raise ValueError(
            f"{address} does not answer as a dask scheduler (--dask takes a scheduler's address, e.g. tcp://host:8786)"
        ) from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except BaseException as e:
        client.close()  # type: ignore[no-untyped-call]
        if isinstance(e, (TimeoutError, asyncio.TimeoutError)):
            raise OSError(
                f"the dask scheduler at {address} has no worker after {timeout:g} s (--dask-timeout); "
                f"start one with: dask worker {address}"
            ) from None
        raise
    return client
