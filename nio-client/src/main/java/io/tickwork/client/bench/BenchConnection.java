package io.tickwork.client.bench;

import io.tickwork.client.common.ResponseParser;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One {@code bench} connection's state: its channel and key (null between connections), the
 * response parser, the bytes of queued requests not yet written, and the requests in flight as a
 * ring of {@code depth} slots, oldest first (responses come back in request order), each with its
 * latency base (queued or intended send time), its write time and whether it belongs to the
 * measured phase (see {@link BenchWorker}). Memory: three arrays of {@code depth} and an output buffer of {@code depth}
 * times the longest request, allocated once; nothing per request. Confined to its worker's
 * thread.
 */
final class BenchConnection {
    final ResponseParser parser = new ResponseParser();
    final ByteBuffer out;
    private final long[] sentAt;
    private final long[] writtenAt;
    private final boolean[] measured;
    SocketChannel ch;
    SelectionKey key;
    boolean connected;
    /** The first connect has ended, connected or failed (the run's clock waits for that). */
    boolean settled;
    /** Open loop: queued in the worker's ready list. */
    boolean inReady;
    /** Queued in the worker's list of connections with bytes to write. */
    boolean dirty;

    private int head;
    int inflight;
    long connectStarted;
    long reconnectAt = Long.MAX_VALUE;
    /** A response arrived since the current connect. */
    boolean answered;
    /** Connections in a row that ended without a response: the next reconnect waits longer. */
    int fruitless;

    BenchConnection(int depth, int maxRequestBytes) {
        sentAt = new long[depth];
        writtenAt = new long[depth];
        measured = new boolean[depth];
        out = ByteBuffer.allocate(depth * maxRequestBytes);
    }

    /** Records one more request in flight (its bytes are already in {@link #out}). */
    void queued(long latencyBase, long now, boolean measuredPhase) {
        int tail = (head + inflight) % sentAt.length;
        sentAt[tail] = latencyBase;
        writtenAt[tail] = now;
        measured[tail] = measuredPhase;
        inflight++;
    }

    /** The latency base of the oldest request in flight; only when {@code inflight > 0}. */
    long oldestSentAt() {
        return sentAt[head];
    }

    /** When the oldest request in flight was written; only when {@code inflight > 0}. */
    long oldestWrittenAt() {
        return writtenAt[head];
    }

    /** Retires the oldest request in flight (its response arrived); true if it was measured. */
    boolean retireOldest() {
        boolean m = measured[head];
        head = (head + 1) % sentAt.length;
        inflight--;
        return m;
    }

    /**
     * For requests that will not be answered (at the end of a run, or on a connection that goes
     * away when they are not sent again): records {@code now - base} for every measured request
     * still in flight whose wait so far (a lower bound of its latency) is over {@code longerThan};
     * returns how many.
     */
    int recordUnfinished(org.HdrHistogram.SingleWriterRecorder recorder, long now, long longerThan) {
        int n = 0;
        for (int i = 0; i < inflight; i++) {
            int k = (head + i) % sentAt.length;
            if (measured[k] && now - sentAt[k] > longerThan) {
                recorder.recordValue(io.tickwork.client.common.LatencyRange.clamp(now - sentAt[k]));
                n++;
            }
        }
        return n;
    }

    /** How many of the requests in flight belong to the measured phase. */
    int measuredInFlight() {
        int n = 0;
        for (int i = 0; i < inflight; i++) {
            if (measured[(head + i) % measured.length]) {
                n++;
            }
        }
        return n;
    }

    /**
     * Closes the channel, if any, and returns to "no connection": parser, output and ring emptied.
     * Returns the number of requests that were in flight.
     */
    int close() {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing: nothing to recover
            }
        }
        ch = null;
        key = null;
        connected = false;
        parser.reset();
        out.clear();
        // inReady stays: an entry in the worker's ready list may still name this connection, and a
        // second one added after a reconnect would send past the depth (the worker skips stale ones)
        return dropInFlight();
    }

    /** Forgets the requests in flight (their connection is going away); returns how many. */
    int dropInFlight() {
        int n = inflight;
        inflight = 0;
        head = 0;
        return n;
    }
}
