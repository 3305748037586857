package io.tickwork.primitives.order;

/**
 * Receives the failures of a {@link KeyedSerialExecutor}'s tasks: the key, the task as it was
 * passed to {@code execute}, and what it threw.
 *
 * <p>Called in the thread that ran the task (a pool thread, or a producer draining in place; see
 * {@link KeyedSerialExecutor}), after the task and before the key's next task starts, so a
 * handler sees a key's failures in order and may touch the key's state without a lock. The thread's
 * interrupt flag is still as the failed task left it (cleared before the next task). One
 * handler serves every key, so calls for different keys may run at the same time: state it
 * shares across keys needs its own synchronization. Not called for a {@link VirtualMachineError},
 * which the executor rethrows instead (see {@link KeyedSerialExecutor}). A handler that throws
 * does not stall the key: what it throws goes to the running thread's
 * {@link Thread.UncaughtExceptionHandler}, with the task's failure attached as suppressed, and
 * the key's next task runs; a {@link VirtualMachineError} thrown by the handler (or by that
 * uncaught-exception handler) is rethrown as a task's would be. If that uncaught-exception handler
 * throws anything else too, nobody is left to tell: it is dropped, and the key goes on.
 *
 * @param <K> the key type
 */
@FunctionalInterface
public interface TaskFailureHandler<K> {
    /**
     * @param key an equal key: the instance whose task created the key's lane, which may be an
     *     earlier submission's while the lane is kept between busy periods (the same one, unless
     *     equal keys carry other state)
     * @param task the task that failed
     * @param failure what it threw: an {@link Exception} or an {@link Error} that is not a
     *     {@link VirtualMachineError}
     */
    void taskFailed(K key, Runnable task, Throwable failure);
}
