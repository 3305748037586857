package io.tickwork.primitives.order;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * A pool that only records submissions; the test's arbiter runs them after the actors finished,
 * so every run the test observes is either a drain by an actor or a recorded submission.
 */
final class CapturingPool implements Executor {
    private final List<Runnable> submitted = new ArrayList<>(4);

    @Override
    public synchronized void execute(Runnable command) {
        submitted.add(command);
    }

    synchronized Runnable take() {
        return submitted.remove(0);
    }

    synchronized int size() {
        return submitted.size();
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
