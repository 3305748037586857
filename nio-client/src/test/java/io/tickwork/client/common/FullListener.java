package io.tickwork.client.common;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

/**
 * Makes a listener that does not accept drop SYNs: once its accept queue is full, the kernel drops
 * every further SYN for it, so a client's connect waits through its retries (or its own timeout)
 * instead of being refused.
 */
public final class FullListener {
    private FullListener() {}

    /**
     * Connects to {@code at} until a connect is dropped, adding the sockets that got into the
     * accept queue to {@code into} (the caller closes them).
     */
    public static void fillAcceptQueue(InetSocketAddress at, List<Socket> into) throws IOException {
        for (int i = 0; i < 16; i++) {
            Socket s = new Socket();
            try {
                s.connect(at, 200);
                into.add(s);
            } catch (IOException dropped) {
                s.close();
                return;
            }
        }
    }
}
