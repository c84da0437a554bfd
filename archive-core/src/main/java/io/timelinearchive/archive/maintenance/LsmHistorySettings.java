package io.timelinearchive.archive.maintenance;

import io.timelinearchive.config.Setting;
import java.util.List;

/**
 * The Hudi keys of a Hudi 1.x table's LSM history (its compaction and cleaning), declared here so
 * that the archiver's key check knows them; archive-lsm reads them ({@code LsmSettings}). Hudi
 * 1.0.1 has one such key: its target file size (1000 MiB) and the manifests it keeps (3, plus one
 * per compaction of the run) are constants there.
 */
public final class LsmHistorySettings {
  // Hudi 1.0.1 takes any number; 1 (or less) never compacts, since a merge takes at least two files
  public static final Setting<Integer> COMPACTION_BATCH_SIZE =
      Setting.integer("hoodie.timeline.compaction.batch.size")
          .defaultValue(10)
          .atLeast(1)
          .doc(
              "Hudi 1.x tables: a layer of the LSM history holding this many files has its oldest"
                  + " merged into one file of the next layer")
          .build();

  public static final List<Setting<?>> SETTINGS = List.of(COMPACTION_BATCH_SIZE);

  private LsmHistorySettings() {}
}
