package io.tickwork.client.idle;

import io.tickwork.client.common.ResponseParser;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One connection of {@code idle}: its channel, the source address it was bound to, and where it
 * is in its life (connect pending, open at {@code index} of the holder's open list, closed).
 * With the workload it also carries a response parser, the request not yet written, whether a
 * response is awaited and since when, and the handle of its one workload timer. A few dozen
 * bytes; confined to the holder's thread.
 */
final class IdleConnection {
    final SocketChannel ch;
    /** Index of the source address bound before connect; -1 when the kernel chose. */
    final int source;

    SelectionKey key;
    boolean pending;
    boolean closed;
    int index = -1;
    long startedAt;
    // workload only
    ResponseParser parser;
    /** Workload: the Host header of its requests, set when it joins. */
    String host;

    ByteBuffer outBuf;
    boolean awaiting;
    long sentAt;
    /** Its workload timer (next request, or response timeout) in the workload's queue; 0: none. */
    long timer;

    IdleConnection(SocketChannel ch, int source) {
        this.ch = ch;
        this.source = source;
    }

    /** Writes what the kernel takes of the request in {@link #outBuf}; wants OP_WRITE for the rest. */
    void flush() throws IOException {
        if (outBuf == null) {
            return;
        }
        ch.write(outBuf);
        if (outBuf.hasRemaining()) {
            key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        } else {
            outBuf = null;
            key.interestOps(SelectionKey.OP_READ);
        }
    }
}
