package io.tickwork.server.http;

import io.tickwork.primitives.timer.TimerQueue;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * A selector loop's accept side: its registration on the listening socket all loops share, and
 * the back-off when {@code accept} fails. A failing accept (EMFILE, ENFILE and friends) leaves
 * the pending connection queued, so with accept interest left on, {@code select} would return at
 * once forever; instead the loop's accept interest is dropped and a {@link #RESUME} timer restores
 * it after 10 ms, doubling up to 1 s while accept keeps failing. The loop keeps serving its
 * connections meanwhile. Failures and the recovery are reported to the server, which rate-limits
 * the log across loops.
 *
 * <p>With a connection cap ({@code HttpServer.Builder.maxConnections}) each accept first claims a
 * place from the server; at the cap the loop drops accept interest the same way and looks again
 * after {@link #CAP_RETRY_MILLIS}, or at once when one of its own connections closes
 * ({@link #released}). Pending connections wait in the kernel's accept queue meanwhile.
 *
 * <p>Thread safety: owned by one loop thread.
 */
final class LoopAcceptor {
    /** Timer payload: restore accept interest ({@link #resume}). */
    static final Object RESUME = new Object();

    /** At the connection cap, how long a loop waits before it looks for a free place again. */
    static final long CAP_RETRY_MILLIS = 10;

    private final ServerSocketChannel listener;
    private final HttpServer.Acceptor acceptor;
    private final HttpServer server;
    /** The listener's key on the loop's selector (attachment null), or null once stopped. */
    private SelectionKey key;
    /** Current back-off in ms, 0 while accept works. */
    private long backoff;
    /** Accept interest is off because the server was at its connection cap. */
    private boolean pausedAtCap;

    LoopAcceptor(ServerSocketChannel listener, Selector selector, HttpServer.Acceptor acceptor, HttpServer server)
            throws IOException {
        this.listener = listener;
        this.acceptor = acceptor;
        this.server = server;
        this.key = listener.register(selector, SelectionKey.OP_ACCEPT, null);
    }

    /**
     * A newly accepted connection, or null: none pending, the listener closed, or accept failed
     * (then accept interest is off and a {@link #RESUME} timer is scheduled on {@code timers}).
     */
    SocketChannel accept(TimerQueue<Object> timers, long now) {
        if (!server.claimConnection()) {
            pausedAtCap = true;
            pauseAccepting();
            timers.schedule(now + CAP_RETRY_MILLIS, RESUME);
            return null;
        }
        SocketChannel ch;
        try {
            ch = acceptor.accept(listener);
        } catch (IOException e) {
            server.releaseConnection();
            if (!listener.isOpen()) {
                return null;
            }
            backoff = backoff == 0 ? 10 : Math.min(backoff * 2, 1000);
            pauseAccepting();
            timers.schedule(now + backoff, RESUME);
            server.acceptFailed(e, backoff);
            return null;
        }
        if (ch == null) {
            server.releaseConnection();
        } else {
            backoff = 0;
            server.acceptRecovered(); // whichever loop accepts first reports it, not only one that failed
        }
        return ch;
    }

    /**
     * A connection accepted by this loop closed: its place goes back to the server, and a loop
     * paused at the cap accepts again now rather than at its retry timer.
     */
    void released() {
        server.releaseConnection();
        if (pausedAtCap) {
            resume();
        }
    }

    /** Closes a connection just accepted that could not be set up, giving back its place. */
    void discard(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // already failing; the descriptor is released either way
        }
        released();
    }

    /**
     * Accept interest off. A graceful stop may have closed the listener from another thread,
     * cancelling the key: then there is nothing to pause, and no failure of this loop.
     */
    private void pauseAccepting() {
        if (key.isValid()) {
            try {
                key.interestOps(0);
            } catch (java.nio.channels.CancelledKeyException closedMeanwhile) {
                // the listener closed between the check and the call
            }
        }
    }

    /** The back-off or cap pause is over: accept interest back on, unless stopped. */
    void resume() {
        pausedAtCap = false;
        if (key != null && key.isValid()) {
            key.interestOps(SelectionKey.OP_ACCEPT);
        }
    }

    /** No more accepts on this loop (graceful stop). */
    void stop() {
        if (key != null) {
            key.cancel();
            key = null;
        }
    }
}
