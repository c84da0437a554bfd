package io.timelinearchive.storage.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.testing.FaultProxy;
import io.timelinearchive.timeline.HoodieTable;
import java.io.IOException;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Archival of a table of about 500 instants on fake-gcs-server, through the registry as the CLI
 * runs it: GCS has no append, so every run writes one new archive file with a conditional create,
 * and deletes go through the backend's batches. The invariants are checked by {@link
 * InvariantChecker}, which reads the bucket on its own.
 */
class TestGcsTimelineArchival {
  private static final FakeGcsServer SERVER = FakeGcsServer.shared();

  // 300 deltacommits, a compaction every 5, a clean every 2, one rollback: 511 instants.
  private static final SampleTable.Spec TABLE =
      new SampleTable.Spec(300, true, 5, 2, 0, 120, false, LocalDateTime.of(2026, 3, 1, 0, 0), 11);

  private static final Pattern ARCHIVE_OBJECT =
      Pattern.compile("\"name\"\\s*:\\s*\"[^\"]*/\\.commits_\\.archive\\.\\d+_[^\"/]*\"");

  private FaultProxy proxy;
  private StorageLocation base;
  private StorageLocation meta;
  private StorageLocation archiveFolder;
  private MetaStorage storage;
  private InvariantChecker checker;

  @BeforeEach
  void openBucket() throws IOException {
    proxy = SERVER.proxy();
    String bucket = SERVER.newBucket("archival");
    base = StorageLocation.of("gs://" + bucket + "/warehouse/orders");
    meta = base.resolve(HoodieTable.META_FOLDER);
    archiveFolder = meta.resolve(HoodieTable.DEFAULT_ARCHIVE_FOLDER);
    storage = MetaStorages.open(base, SERVER.config());
  }

  /** Writes the table straight to the server: the proxy counts only what the archiver does. */
  private SampleTable.Written writeTable(SampleTable.Spec spec) throws IOException {
    SampleTable.Written written = SampleTable.write(storage, base, spec);
    checker = new InvariantChecker(InvariantChecker.snapshot(storage, meta));
    return written;
  }

  @AfterEach
  void close() throws IOException {
    storage.close();
    proxy.close();
  }

  @Test
  void archivesRunAfterRunIntoNewFiles() throws IOException {
    SampleTable.Written written = writeTable(TABLE);
    assertThat(written.files().values().stream().map(i -> i.key()).distinct().count())
        .isGreaterThanOrEqualTo(500);

    ArchiveResult first = archive(Map.of());

    assertThat(first.archived()).isNotEmpty();
    assertThat(first.archiveFilesWritten())
        .singleElement()
        .satisfies(f -> assertThat(f.appended()).isFalse());
    assertThat(checker.check(storage, meta, archiveFolder)).isEmpty();
    // Completed files go one call each (oldest first), pending ones in batches of at most 100.
    long calls = first.requests().deleteCalls();
    assertThat(proxy.count(r -> r.isBatch() || r.method().equals("DELETE")))
        .isLessThanOrEqualTo(calls + first.requests().deletedFiles() / 100);

    ArchiveResult second =
        archive(Map.of("hoodie.keep.min.commits", "5", "hoodie.keep.max.commits", "8"));

    assertThat(second.archived()).isNotEmpty();
    assertThat(second.archiveFilesWritten())
        .singleElement()
        .satisfies(f -> assertThat(f.appended()).isFalse());
    assertThat(checker.check(storage, meta, archiveFolder)).isEmpty();
    assertThat(archiveFileNames()).hasSize(2);

    ArchiveResult third =
        archive(Map.of("hoodie.keep.min.commits", "5", "hoodie.keep.max.commits", "8"));

    assertThat(third.archived()).isEmpty();
    assertThat(third.archiveFilesWritten()).isEmpty();
    ArchivedTimeline archived =
        ArchivedTimeline.load(storage, archiveFolder, ArchiveReadOptions.metadataOnly());
    assertThat(archived.instants()).hasSize(first.archived().size() + second.archived().size());
    assertThat(checker.check(storage, meta, archiveFolder)).isEmpty();
  }

  @Test
  void aLostAnswerToTheArchiveWriteIsSettledByReadingItBack() throws IOException {
    writeTable(SampleTable.Spec.ofSize(250, 12));
    // The archive file lands, its answer is lost, the retry gets 412: the backend reports an
    // unknown outcome and the archiver compares the file with what it meant to write.
    proxy.inject(TestGcsTimelineArchival::isArchiveUpload, FaultProxy.Fault.DROP_AFTER, 1);

    ArchiveResult result = archive(Map.of());

    assertThat(result.archived()).isNotEmpty();
    assertThat(proxy.count(TestGcsTimelineArchival::isArchiveUpload)).isEqualTo(2);
    assertThat(archiveFileNames()).hasSize(1);
    assertThat(checker.check(storage, meta, archiveFolder)).isEmpty();
  }

  /** An upload of an archive file: its multipart metadata names the object. */
  private static boolean isArchiveUpload(FaultProxy.Request request) {
    return request.isUpload() && ARCHIVE_OBJECT.matcher(request.bodyHead()).find();
  }

  private ArchiveResult archive(Map<String, String> policy) throws IOException {
    Map<String, String> config = new HashMap<>(SERVER.config(proxy, Map.of()));
    config.putAll(policy);
    try (TimelineArchiver archiver = TimelineArchiver.open(base.toString(), config)) {
      return archiver.archiveIfRequired();
    }
  }

  private List<String> archiveFileNames() throws IOException {
    return storage.list(archiveFolder).toList().stream()
        .map(FileEntry::name)
        .filter(n -> n.startsWith(".commits_.archive."))
        .toList();
  }
}
