package io.tickwork.server.http;

/**
 * A snapshot of a server's counters, summed over its selector loops. Each loop publishes its own
 * counters before it waits for I/O, so a snapshot may lag the truth by the batch in progress, and
 * an idle loop's are current.
 *
 * @param openConnections connections open now
 * @param acceptedConnections connections accepted since start
 * @param requests requests answered (including error answers)
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
