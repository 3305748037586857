/**
 * Ordered execution over any {@link java.util.concurrent.Executor}: tasks of one key run one at a
 * time, in submission order, on a shared pool, without a thread per key.
 *
 * <p>Everything here is built on one node, {@link io.tickwork.primitives.order.LinkingRunnable}
 * (Jeff Hain's linking runnable, as used by http-kit): a chain of task nodes drained iteratively by
 * whichever pool thread owns its head. {@link io.tickwork.primitives.order.SingleProducerSerialExecutor}
 * (one producer thread at a time) links nodes by CAS and closes a chain by a self-link tombstone
 * (the link-CAS and tombstone protocol).
 * {@link io.tickwork.primitives.order.MultiProducerSerialExecutor}
 * (any producers) swaps an atomic tail, links with a release store and closes the chain on the tail:
 * one atomic instruction per task instead of two. On the latter:
 * {@link io.tickwork.primitives.order.SerialExecutorGroup} (many executors, lanes multiplexed onto
 * a few resident pool workers) and {@link io.tickwork.primitives.order.KeyedSerialExecutor} (one
 * lane per active key, idle keys retired, the same workers). All share the guarantees
 * listed on {@link io.tickwork.primitives.order.SerialExecutor}. No runtime dependencies.
 */
package io.tickwork.primitives.order;
