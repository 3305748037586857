package io.tickwork.server.client;

import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The outcome of an {@code idle} run. Immutable. */
record IdleResult(
    int target,
    int connectedAtEnd,
    int peak,
    long attempts,
    Map<OsError, Long> failures,
    OsError hardLimit,
    String hardLimitMessage,
    long closedByServer,
    long requests,
    long responseBytes,
    long timeouts,
    long badResponses,
    Histogram latency,
    IdleHolder.Memory before,
    IdleHolder.Memory atRamp,
    double elapsedSeconds) {

  IdleResult {
    failures = Map.copyOf(failures);
  }

  long failed(OsError kind) {
    return failures.getOrDefault(kind, 0L);
  }

  String toText() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "idle: %d of %d connected at the end (peak %d), %d "
            + "connect attempts, %.1fs%n", connectedAtEnd, target, peak, attempts,
        elapsedSeconds));
    sb.append("  failures   ").append(failures.isEmpty() ? "none" : failures.toString())
        .append('\n');
    if (hardLimit != null) {
      sb.append("  ceiling    ").append(hardLimit.name()).append(" (").append(hardLimit.what)
          .append("): ").append(hardLimitMessage).append('\n');
      sb.append("  raise it   ").append(hardLimit.advice).append('\n');
    }
    sb.append("  closed     ").append(closedByServer).append(" by the server\n");
    if (requests > 0 || timeouts > 0 || badResponses > 0) {
      sb.append(String.format(Locale.ROOT, "  workload   %d responses, %s read, %d timeouts, "
              + "%d bad responses, latency p50 %s p99 %s max %s%n", requests,
          Fmt.bytes(responseBytes), timeouts, badResponses,
          Fmt.nanos(latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(50)),
          Fmt.nanos(latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(99)),
          Fmt.nanos(latency.getTotalCount() == 0 ? 0 : latency.getMaxValue())));
    }
    sb.append("  memory     before: ").append(before.describe(null, 0)).append('\n');
    sb.append("             at ").append(peak).append(" connections: ")
        .append(atRamp.describe(before, peak)).append('\n');
    return sb.toString();
  }
}
