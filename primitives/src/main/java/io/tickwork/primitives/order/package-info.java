/**
 * Ordered execution over any {@link java.util.concurrent.Executor}: tasks of one key run one at a
 * time, in submission order, on a shared pool, without a thread per key.
 *
 * <p>The entry point is {@link io.tickwork.primitives.order.KeyedSerialExecutor}
 * ({@code KeyedSerialExecutor.create(pool)}, or {@code builder(pool)} for the options); its class
 * comment states every guarantee. Failures go to a
 * {@link io.tickwork.primitives.order.TaskFailureHandler}. Everything else here is how it works:
 * a lane of task nodes per busy key ({@code KeyLane}, {@code TaskNode}), a ready queue of busy keys
 * drained by a few resident workers on the pool ({@code LaneDispatcher}, {@code Worker}), and the
 * lifecycle's count of busy keys ({@code Lifecycle}). Design notes: {@code docs/results/order-design.md}. No
 * runtime dependencies.
 */
package io.tickwork.primitives.order;
