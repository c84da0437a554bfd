package io.timelinearchive.lsm;

import io.timelinearchive.timeline.State;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;

/**
 * The history row of one completed instant, made from the files of its states as Hudi 1.0's
 * archiver makes it: {@code metadata} the completed file (none when empty), {@code plan} the plan
 * its pending state holds, by the action of that state (HUDI-FORMAT.md §8).
 */
final class ArchivedActionRow {
  private ArchivedActionRow() {}

  /**
   * @param states each state file of the instant present in the active timeline, with its bytes;
   *     the completed one among them
   * @throws IllegalArgumentException if no completed state is given
   */
  static LsmRow of(Map<Hudi1Instant, byte[]> states) {
    Hudi1Instant completed =
        states.keySet().stream()
            .filter(Hudi1Instant::isCompleted)
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no completed state in " + states));
    Optional<Map.Entry<Hudi1Instant, byte[]>> requested = state(states, State.REQUESTED);
    Optional<Map.Entry<Hudi1Instant, byte[]>> inflight = state(states, State.INFLIGHT);
    Optional<Map.Entry<Hudi1Instant, byte[]>> pending = requested.or(() -> inflight);
    Optional<ByteBuffer> plan =
        switch (pending.map(p -> p.getKey().action()).orElse("")) {
          case Hudi1Actions.CLEAN -> pending.map(p -> ByteBuffer.wrap(p.getValue()));
          case Hudi1Actions.COMPACTION, Hudi1Actions.LOG_COMPACTION ->
              requested.map(r -> ByteBuffer.wrap(r.getValue()));
          case Hudi1Actions.REPLACE_COMMIT, Hudi1Actions.CLUSTERING ->
              nonEmpty(inflight).or(() -> nonEmpty(requested));
          default -> Optional.empty();
        };
    return new LsmRow(
        completed.requestedTime(),
        completed.completionTime().orElseThrow(),
        completed.action(),
        nonEmpty(state(states, State.COMPLETED)),
        plan);
  }

  private static Optional<Map.Entry<Hudi1Instant, byte[]>> state(
      Map<Hudi1Instant, byte[]> states, State state) {
    return states.entrySet().stream().filter(e -> e.getKey().state() == state).findFirst();
  }

  private static Optional<ByteBuffer> nonEmpty(Optional<Map.Entry<Hudi1Instant, byte[]>> state) {
    return state.map(Map.Entry::getValue).filter(b -> b.length > 0).map(ByteBuffer::wrap);
  }
}
