package io.tickwork.client.pingpong;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A server for the 4-byte ping-pong: for every 4 bytes read on a connection it writes {@code
 * "Pong"}. Implementations differ only in threading model, which is what the ping-pong
 * compares; see {@link PingPongModel}. {@link #close()} stops accepting, closes every
 * connection and ends the server's threads. Thread safe for start-then-close from one thread.
 */
interface PingPongServer extends AutoCloseable {

    /** Binds to {@code bind} (port 0 for an ephemeral port) and starts serving. */
    InetSocketAddress start(InetSocketAddress bind) throws IOException;

    /**
     * The first failure that ended a server thread early or made it stop accepting (an
     * {@code accept} refused for want of descriptors, a selector that broke), or null: a run whose
     * server failed measured something else, and is reported as failed, never silently.
     */
    Throwable failure();

    @Override
    void close() throws IOException;
}
