package io.tickwork.server.http;

/**
 * A snapshot of a server's counters, summed over its selector loops. Each loop publishes its own
 * counters before it waits for I/O, so a snapshot may lag the truth by the batch in progress, and
 * an idle loop's are current.
 *
 * @param openConnections connections open now
 * @param acceptedConnections connections accepted since start
 * @param requests requests received whole, or refused with an error (a 4xx or 5xx for a bad
 *     one, a 408 for a head that timed out); counted when the loop takes them, so those dropped
 *     behind a response that closed the connection (in worker mode, handed out before that close)
 *     are counted too
 * @param bytesIn bytes read from clients
 * @param bytesOut bytes written to clients
 * @param uptimeMillis time since start
 * @param loops number of selector loops
 */
public record ServerStats(
        long openConnections,
        long acceptedConnections,
        long requests,
        long bytesIn,
        long bytesOut,
        long uptimeMillis,
        int loops) {}
