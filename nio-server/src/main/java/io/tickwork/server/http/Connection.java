package io.tickwork.server.http;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client connection's state, owned by one {@link SelectorLoop} thread. While the connection is
 * idle it holds no buffer at all ({@code pendingIn} and {@code pendingOut} are null): the loop reads
 * into and writes from its own shared buffers, and only bytes that must survive to the next event
 * (a partial request, unsent response bytes) are copied into per-connection buffers.
 * 64 bytes of heap of its own on a 64-bit JVM with compressed pointers, beside the JDK's channel
 * (112) and key (48) objects: {@code interest} a byte and {@code inFlight} a short, so they pack
 * with the booleans; the channel is reached through the key, and a partial request's length and
 * parse state are kept with its bytes ({@link PendingInput}), so neither takes a field.
 */
final class Connection {
    /** The connection's registration; set once, right after the constructor. */
    SelectionKey key;
    /** The interest set last given to {@code key}: 0, {@code OP_READ} or {@code OP_WRITE}. */
    byte interest;

    /** Unparsed bytes: a partial request, or requests held back while output is blocked; set, grown and dropped only through the loop's {@link HeldInput}. */
    PendingInput pendingIn;

    /** Response bytes the socket did not take yet; while non-null the connection does not read. */
    ByteBuffer pendingOut;
    /** Close once the output is written (and no response is still being computed). */
    boolean closeAfterWrite;
    /**
     * The close after the output is a lingering one (a response that closes the connection: the
     * client may still be sending). Set with {@link #closeAfterWrite}; once the output is
     * written, {@code closeAfterWrite} is cleared and this alone means lingering: our side is shut
     * down, reads are discarded.
     */
    boolean lingerOnClose;

    /** A response closes it: close once the output is written, lingering (see {@link #lingerOnClose}). */
    void closeAfterResponse() {
        closeAfterWrite = true;
        lingerOnClose = true;
    }
    /** This request's {@code 100 Continue}: owed (behind responses still being computed), or sent. */
    boolean continueOwed, continueSent;
    /** Worker mode: requests handed to workers whose responses have not come back yet (at most 64). */
    short inFlight;

    boolean closed;

    /**
     * Time (loop clock, ms) the current partial request began, or -1 when there is none, or
     * {@link #CR_HELD}.
     */
    long requestStart = -1;

    /**
     * {@link #requestStart} when a CR ended the last read where a request line could start and no
     * request has: the next byte decides (an LF: an empty line, dropped; anything else: a bare CR,
     * put back for the parser to refuse). Held apart from the pending input, so that it starts no
     * header timeout and is no activity. A value, not a field of its own: the connection's 64
     * bytes have no room left ({@code ConnectionFootprintTest}).
     */
    static final long CR_HELD = -2;
    /** Time of the last read or write progress. */
    long lastActivity;
    /** Handle of this connection's timer in the loop's queue (0: none) and its deadline. */
    long timerHandle;

    long timerDeadline;

    /** The connection's socket. */
    SocketChannel channel() {
        return (SocketChannel) key.channel();
    }

    /** Our side is shut down after the last response; what the client still sends is discarded. */
    boolean lingering() {
        return lingerOnClose && !closeAfterWrite;
    }

    /** Requests are waiting in {@code pendingIn} and nothing stops answering them now. */
    boolean heldBack() {
        return pendingOut == null
                && pendingIn != null
                && requestStart < 0
                && !closeAfterWrite
                && inFlight < WorkerDispatch.MAX_IN_FLIGHT;
    }
}
