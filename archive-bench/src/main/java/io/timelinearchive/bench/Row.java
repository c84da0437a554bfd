package io.timelinearchive.bench;

import static java.util.Objects.requireNonNull;

/**
 * One line of the results table.
 *
 * @param figure P1 … P5
 * @param size what was measured, e.g. "10,000 instant files"
 * @param ours our value, formatted with its unit
 * @param comparator what we compare with (Hudi 0.15's value, the request floor, a limit)
 * @param ratio the figure's ratio (how many times better, or measured over floor), or "—"
 * @param goal the goal as the issue states it
 * @param met whether the goal is met; null when the row is informative only
 * @param note how it was measured, or why the goal is not met
 * @param ratioValue the ratio as a number, NaN where there is none (for the JSON)
 */
record Row(
    String figure,
    String size,
    String ours,
    String comparator,
    String ratio,
    String goal,
    Boolean met,
    String note,
    double ratioValue) {
  Row {
    requireNonNull(figure, "figure is null");
    requireNonNull(size, "size is null");
    requireNonNull(ours, "ours is null");
    requireNonNull(comparator, "comparator is null");
    requireNonNull(ratio, "ratio is null");
    requireNonNull(goal, "goal is null");
    requireNonNull(note, "note is null");
  }

  String metText() {
    return met == null ? "—" : met ? "met" : "not met";
  }
}
