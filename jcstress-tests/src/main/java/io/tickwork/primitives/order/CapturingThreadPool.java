package io.tickwork.primitives.order;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * As {@link CapturingPool}, but a one-thread {@link ThreadPoolExecutor} in the executor's eyes,
 * whose queue always holds other work: a worker out of keys then leaves at once instead of
 * lingering, so its leaving races the actors within the iteration. It never starts a thread; the
 * runnable in its queue never runs.
 */
final class CapturingThreadPool extends ThreadPoolExecutor {
    private final List<Runnable> submitted = new ArrayList<>(4);

    CapturingThreadPool() {
        super(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        getQueue().add(() -> {});
    }

    @Override
    public synchronized void execute(Runnable command) {
        submitted.add(command);
    }

    /** How many submissions are recorded and not yet taken or run. */
    synchronized int submittedCount() {
        return submitted.size();
    }

    synchronized Runnable take() {
        return submitted.remove(0);
    }

    /** Runs and removes every recorded submission, including ones submitted while running; returns how many. */
    int runAll() {
        int n = 0;
        for (; ; ) {
            Runnable next;
            synchronized (this) {
                if (submitted.isEmpty()) {
                    return n;
                }
                next = submitted.remove(0);
            }
            next.run();
            n++;
        }
    }
}
