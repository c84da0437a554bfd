package io.timelinearchive.archive;

import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A copy-on-write table in memory for crash trials, with the independent checker of its invariants
 * and a clock the trials move past a dead run's lease.
 */
final class CrashFixture implements AutoCloseable {
  final MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
  final StorageLocation base = TestTables.newMemoryTable();
  final MetaStorage memory = TestTables.memory(base);
  final StorageLocation meta = base.resolve(".hoodie");
  final StorageLocation archiveFolder = meta.resolve("archived");
  final InvariantChecker checker;
  final Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);

  CrashFixture(Map<String, String> settings, int commits) throws Exception {
    config.putAll(settings);
    TestTables.write(memory, base, TestTables.copyOnWrite(commits));
    checker = new InvariantChecker(InvariantChecker.snapshot(memory, meta));
  }

  TimelineArchiver archiver(MetaStorage storage) {
    return TimelineArchiver.create(storage, base, config, clock, ArchiveListener.NONE);
  }

  @Override
  public void close() {
    InMemoryMetaStorageFactory.dropVolume(base.authority());
  }

  List<String> violations() throws Exception {
    return checker.check(memory, meta, archiveFolder);
  }

  List<String> activeNames() throws Exception {
    return InvariantChecker.snapshot(memory, meta).keySet().stream().toList();
  }

  List<InvariantChecker.Archived> archived() throws Exception {
    return InvariantChecker.readArchive(memory, archiveFolder, new ArrayList<>());
  }

  List<String> archivedIds() throws Exception {
    return archived().stream().map(InvariantChecker.Archived::id).toList();
  }

  List<String> leftovers() throws Exception {
    return memory.list(archiveFolder).toList().stream()
        .map(FileEntry::name)
        .filter(n -> n.startsWith(".timeline_archive"))
        .toList();
  }
}
