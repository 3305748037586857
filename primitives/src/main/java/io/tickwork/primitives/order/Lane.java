package io.tickwork.primitives.order;

/**
 * One serial order of tasks: the unit whose tasks run one at a time. A
 * {@link MultiProducerSerialExecutor} or {@link SingleProducerSerialExecutor} is one lane; a
 * {@link KeyedSerialExecutor} has one lane per active key. Nodes point to their lane so that the
 * pool thread draining them finds the policy and can tell the lane it went idle.
 */
class Lane {
    final DrainPolicy policy;

    Lane(DrainPolicy policy) {
        this.policy = policy;
    }

    /**
     * Called by the drainer right after it tombstoned {@code last}, the lane's last node: the lane
     * has no task queued or running. Plain lanes do nothing; keyed lanes try to retire.
     */
    void wentIdle(LinkingRunnable last) {
    }
}
