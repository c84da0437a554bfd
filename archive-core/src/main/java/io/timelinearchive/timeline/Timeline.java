package io.timelinearchive.timeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A sorted, duplicate-free set of instant state files; a value, with no storage behind it. */
public final class Timeline {
  private final List<TimelineInstant> instants;

  private Timeline(List<TimelineInstant> sorted) {
    this.instants = sorted;
  }

  public static Timeline of(Collection<TimelineInstant> instants) {
    return new Timeline(instants.stream().distinct().sorted().toList());
  }

  /** All state files, sorted by {@link TimelineInstant#ORDER}. */
  public List<TimelineInstant> instants() {
    return instants;
  }

  public int size() {
    return instants.size();
  }

  /** The state files of each instant, by key, keys ascending. */
  public Map<InstantKey, List<TimelineInstant>> byKey() {
    Map<InstantKey, List<TimelineInstant>> byKey = new TreeMap<>();
    for (TimelineInstant instant : instants) {
      byKey.computeIfAbsent(instant.key(), k -> new ArrayList<>()).add(instant);
    }
    return byKey;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Timeline other && instants.equals(other.instants);
  }

  @Override
  public int hashCode() {
    return instants.hashCode();
  }

  @Override
  public String toString() {
    return "Timeline" + instants;
  }
}
