package io.tickwork.primitives.order;

/**
 * Where a failed task's throwable goes: a {@link VirtualMachineError} is handed back to be
 * rethrown (never swallowed: the JVM may be unable to go on); anything else goes to the
 * {@link TaskFailureHandler}, or, without one, to the running thread's
 * {@link Thread.UncaughtExceptionHandler}, as a pool would send it. A throwing handler's
 * throwable goes to the thread's uncaught-exception handler with the task's failure attached as
 * suppressed; if that throws too, or was the one that threw (no handler), nothing is left to tell,
 * and the key goes on. Immutable.
 */
final class TaskFailures {
    private final TaskFailureHandler<Object> handler;

    @SuppressWarnings("unchecked")
    TaskFailures(TaskFailureHandler<?> handler) {
        this.handler = (TaskFailureHandler<Object>) handler;
    }

    /**
     * Reports {@code failure} of {@code task}, submitted under {@code key}; returns null, or the
     * {@link VirtualMachineError} (the task's, or its handler's) that the caller must rethrow once
     * the key's remaining tasks are safe.
     */
    VirtualMachineError report(Object key, Runnable task, Throwable failure) {
        if (failure instanceof VirtualMachineError fatal) {
            return fatal;
        }
        Thread current = Thread.currentThread();
        try {
            if (handler != null) {
                handler.taskFailed(key, task, failure);
            } else {
                uncaught(current, failure);
            }
            return null;
        } catch (VirtualMachineError fatal) {
            return fatal;
        } catch (Throwable handlerFailure) {
            if (handler == null) {
                return null; // the thread's own handler threw: it is not asked again about its own failure
            }
            try {
                if (handlerFailure != failure) {
                    handlerFailure.addSuppressed(failure); // allocates: may throw OutOfMemoryError
                }
                uncaught(current, handlerFailure);
            } catch (VirtualMachineError fatal) {
                return fatal;
            } catch (Throwable ignored) {
                // the thread's handler failed too: nobody is left to tell, and the key must go on
            }
            return null;
        }
    }

    /** Hands {@code failure} to {@code thread}'s uncaught-exception handler, if it has one; what that throws goes on. */
    static void uncaught(Thread thread, Throwable failure) {
        Thread.UncaughtExceptionHandler ueh = thread.getUncaughtExceptionHandler();
        if (ueh != null) {
            ueh.uncaughtException(thread, failure);
        }
    }
}
