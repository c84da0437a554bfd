package io.timelinearchive.lsm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Hudi 1.0.1's rules for compacting and cleaning the LSM history ({@code LSMTimelineWriter}'s
 * {@code doCompact}, {@code getCandidateFiles}, {@code compactedFileName}, {@code clean}, read from
 * its bytecode), as pure functions. Newer Hudi differs: it makes the size bound and the retained
 * manifests settings and, where a file alone passes the size bound, starts again after it.
 */
final class LsmCompactionRules {
  /** Hudi reads the layer of a file name as one digit, so layer 9 is never compacted further. */
  static final int TOP_LAYER = 9;

  private LsmCompactionRules() {}

  /**
   * The files of {@code layer} to merge into one file of the next layer, if the layer is due: when
   * it holds at least the batch size of files, its files in name order (so oldest first), taken
   * while those taken hold at most {@link LsmSettings#compactionMaxBytes()} bytes, at most the
   * batch size of them; none if fewer than two were taken.
   */
  static Optional<List<LsmManifest.Entry>> candidates(
      List<LsmManifest.Entry> snapshot, int layer, LsmSettings settings) {
    if (layer >= TOP_LAYER) {
      return Optional.empty();
    }
    List<LsmManifest.Entry> files =
        new ArrayList<>(snapshot.stream().filter(e -> e.name().layer() == layer).toList());
    int batch = settings.compactionBatchSize();
    if (files.size() < batch) {
      return Optional.empty();
    }
    files.sort(Comparator.comparing(e -> e.name().fileName()));
    List<LsmManifest.Entry> taken = new ArrayList<>();
    long bytes = 0;
    // the bound is checked before a file is added, so the last file taken may pass it
    for (int i = 0; i < batch && bytes <= settings.compactionMaxBytes(); i++) {
      bytes += files.get(i).length();
      taken.add(files.get(i));
    }
    return taken.size() < 2 ? Optional.empty() : Optional.of(List.copyOf(taken));
  }

  /**
   * The name of the file {@code sources} merge into: the least of their min times, the greatest of
   * their max times, one layer above the first's.
   */
  static LsmFileName compactedName(List<LsmManifest.Entry> sources) {
    String min =
        sources.stream().map(e -> e.name().minTime()).min(Comparator.naturalOrder()).orElseThrow();
    String max =
        sources.stream().map(e -> e.name().maxTime()).max(Comparator.naturalOrder()).orElseThrow();
    return new LsmFileName(min, max, sources.get(0).name().layer() + 1);
  }

  /**
   * The manifest versions a clean keeps of {@code versions}: all while there are at most {@code
   * retained + compactions}, else the newest that many.
   */
  static List<Integer> manifestsToKeep(List<Integer> versions, int retained, int compactions) {
    List<Integer> newestFirst = new ArrayList<>(versions);
    newestFirst.sort(Comparator.reverseOrder());
    int keep = retained + compactions;
    return newestFirst.size() > keep ? List.copyOf(newestFirst.subList(0, keep)) : newestFirst;
  }
}
