package io.tickwork.scheduler;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import kilim.Task;
import kilim.timerservice.Timer;

/**
 * A {@link LoopOwner} for one {@link RunLoop} driven by a test: it records what the loop reports,
 * and {@link #loopDied} stops it as the scheduler's {@code shutdownNow} would. Tests override the
 * calls whose outcome they play (a termination scan that wins, a report that throws).
 */
class RecordingOwner implements LoopOwner {
    volatile int state;
    final List<Task<?>> rejected = new CopyOnWriteArrayList<>();
    final List<Task<?>> dropped = new CopyOnWriteArrayList<>();
    /** Deaths, task failures and internal reports, in the order they came. */
    final List<Object> reports = new CopyOnWriteArrayList<>();

    RecordingOwner(int state) {
        this.state = state;
    }

    @Override
    public int state() {
        return state;
    }

    @Override
    public boolean tryTerminate() {
        return false;
    }

    @Override
    public boolean leaveQuiescence() {
        return state < TERMINATED;
    }

    @Override
    public void loopEnded() {}

    @Override
    public void loopDied(String loopName, Throwable fatal) {
        reports.add(fatal);
        state = STOPPED;
    }

    @Override
    public void taskFailed(Task<?> task, Throwable failure) {
        reports.add(failure);
    }

    @Override
    public void rejected(Task<?> task, Throwable why) {
        rejected.add(task);
    }

    @Override
    public void dropped(Task<?> task) {
        dropped.add(task);
    }

    @Override
    public void reportInternal(String what, Throwable t) {
        reports.add(what);
    }

    @Override
    public void scheduleTimer(Timer timer) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void forward(Object taskOrTimer, int loop) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void move(Task<?> task, int from, int loop) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int residents(int loop) {
        return 0;
    }

    @Override
    public void residentLeft(int loop) {}
}
