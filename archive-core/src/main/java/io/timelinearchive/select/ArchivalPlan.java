package io.timelinearchive.select;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.TimelineInstant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of {@link InstantSelector#plan}: what to archive in one run and why no more.
 *
 * @param instants the selected instants, ascending
 * @param files every state file of the selected instants, in timeline order
 * @param countsByAction selected instants per action ({@code commit} counts completed compactions)
 * @param barriers one per {@link Barrier.Scope}, in the order of the scopes
 * @param minCommits the {@code hoodie.keep.min.commits} applied, after Hudi's widening
 * @param maxCommits the {@code hoodie.keep.max.commits} applied, after Hudi's widening
 * @param warnings settings that were adjusted or could not be applied as written
 */
public record ArchivalPlan(
    List<InstantKey> instants,
    List<TimelineInstant> files,
    Map<Action, Integer> countsByAction,
    List<Barrier> barriers,
    int minCommits,
    int maxCommits,
    List<String> warnings) {

  public ArchivalPlan {
    instants = List.copyOf(instants);
    files = List.copyOf(files);
    EnumMap<Action, Integer> counts = new EnumMap<>(Action.class);
    counts.putAll(requireNonNull(countsByAction, "countsByAction is null"));
    countsByAction = Collections.unmodifiableMap(counts);
    barriers = List.copyOf(barriers);
    warnings = List.copyOf(warnings);
    if (barriers.size() != Barrier.Scope.values().length) {
      throw new IllegalArgumentException("one barrier per scope expected: " + barriers);
    }
    for (int i = 0; i < barriers.size(); i++) {
      if (barriers.get(i).scope() != Barrier.Scope.values()[i]) {
        throw new IllegalArgumentException("barriers out of scope order: " + barriers);
      }
    }
  }

  /** Why the commit timeline, which decides how far the archive reaches, stopped where it did. */
  public Barrier barrier() {
    return barrier(Barrier.Scope.COMMITS);
  }

  public Barrier barrier(Barrier.Scope scope) {
    return barriers.get(scope.ordinal());
  }

  public boolean isEmpty() {
    return instants.isEmpty();
  }
}
