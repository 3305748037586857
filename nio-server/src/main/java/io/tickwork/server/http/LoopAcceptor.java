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
 * <p>Thread safety: owned by one loop thread.
 */
final class LoopAcceptor {
    /** Timer payload: restore accept interest ({@link #resume}). */
    static final Object RESUME = new Object();

    private final ServerSocketChannel listener;
    private final HttpServer.Acceptor acceptor;
    private final HttpServer server;
    /** The listener's key on the loop's selector (attachment null), or null once stopped. */
    private SelectionKey key;
    /** Current back-off in ms, 0 while accept works. */
    private long backoff;

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
        SocketChannel ch;
        try {
            ch = acceptor.accept(listener);
        } catch (IOException e) {
            if (!listener.isOpen()) {
                return null;
            }
            backoff = backoff == 0 ? 10 : Math.min(backoff * 2, 1000);
            key.interestOps(0);
            timers.schedule(now + backoff, RESUME);
            server.acceptFailed(e, backoff);
            return null;
        }
        if (ch != null && backoff != 0) {
            backoff = 0;
            server.acceptRecovered();
        }
        return ch;
    }

    /** The back-off is over: accept interest back on, unless stopped. */
    void resume() {
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
