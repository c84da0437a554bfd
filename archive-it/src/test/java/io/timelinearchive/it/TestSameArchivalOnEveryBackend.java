package io.timelinearchive.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.storage.azure.Azurite;
import io.timelinearchive.storage.gcs.FakeGcsServer;
import io.timelinearchive.storage.hdfs.MiniDfs;
import io.timelinearchive.storage.s3.S3ProxyServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One table, archived run after run through the public API on every backend against its real
 * server: every backend must end with the same active timeline and an archive that reads back to
 * the same entries, byte for byte, whether the store appends (local disk, HDFS, Azure append blobs)
 * or writes a file per run (S3, GCS).
 */
@ExtendWith(Azurite.Extension.class)
class TestSameArchivalOnEveryBackend {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(TestSameArchivalOnEveryBackend.class);

  @RegisterExtension static final MiniDfs HDFS = new MiniDfs();

  @TempDir Path local;

  private record Backend(String name, StorageLocation base, Map<String, String> config) {}

  /** What one backend ended with. */
  private record Outcome(
      List<String> active, List<String> archived, List<byte[]> raw, List<String> byRun) {}

  @Test
  void everyBackendEndsWithTheSameTimelineAndArchive() throws Exception {
    List<Backend> backends = new ArrayList<>();
    backends.add(new Backend("file", StorageLocation.of(local.toUri().toString() + "t"), Map.of()));
    backends.add(new Backend("hdfs", HDFS.newRoot("it").resolve("t"), HDFS.config()));
    S3ProxyServer s3 = S3ProxyServer.shared();
    backends.add(
        new Backend("s3", StorageLocation.of("s3://" + s3.newBucket() + "/t"), s3.config()));
    Azurite azurite = Azurite.get();
    backends.add(
        new Backend(
            "azure",
            Azurite.rootOf(azurite.newContainer().getBlobContainerName()).resolve("t"),
            azurite.config()));
    FakeGcsServer gcs = FakeGcsServer.shared();
    backends.add(
        new Backend("gcs", StorageLocation.of("gs://" + gcs.newBucket("it") + "/t"), gcs.config()));

    List<List<Map.Entry<String, byte[]>>> rounds = rounds();
    Map<String, Outcome> outcomes = new LinkedHashMap<>();
    for (Backend backend : backends) {
      outcomes.put(backend.name(), archiveInRounds(backend, rounds));
    }

    Outcome reference = outcomes.get("file");
    assertThat(reference.archived()).hasSizeGreaterThan(600);
    assertThat(reference.byRun()).doesNotContain("{}");
    assertThat(reference.active()).isNotEmpty();
    assertThat(reference.raw()).allMatch(r -> r != null);
    for (Map.Entry<String, Outcome> e : outcomes.entrySet()) {
      Outcome o = e.getValue();
      assertThat(o.byRun())
          .as("%s: what each run archived", e.getKey())
          .isEqualTo(reference.byRun());
      assertThat(o.active()).as("%s: active timeline", e.getKey()).isEqualTo(reference.active());
      assertThat(o.archived()).as("%s: archive", e.getKey()).isEqualTo(reference.archived());
      for (int i = 0; i < o.raw().size(); i++) {
        assertThat(Arrays.equals(o.raw().get(i), reference.raw().get(i)))
            .as("%s: raw bytes of %s", e.getKey(), o.archived().get(i))
            .isTrue();
      }
    }
  }

  /**
   * The table's files in the order its writer made them, from a table written once to memory: a
   * round copies the next third of them (by instant time) to the backend, as if the writer had
   * carried on, then archives.
   */
  private static List<List<Map.Entry<String, byte[]>>> rounds() throws Exception {
    StorageLocation source = StorageLocation.of("memory://it-source-" + System.nanoTime() + "/t");
    try (MetaStorage memory = MetaStorages.open(source, Map.of())) {
      SampleTable.write(memory, source, SampleTable.Spec.ofSize(1_000, 42));
      List<FileEntry> files =
          memory.list(source.resolve(".hoodie")).toList().stream()
              .filter(f -> !f.name().startsWith("."))
              .sorted(java.util.Comparator.comparing(FileEntry::name))
              .toList();
      List<String> times =
          files.stream()
              .map(FileEntry::name)
              .filter(n -> Character.isDigit(n.charAt(0)))
              .map(n -> n.substring(0, 17))
              .distinct()
              .toList();
      String[] cutoffs = {
        times.get(times.size() / 3), times.get(2 * times.size() / 3), times.get(times.size() - 1)
      };
      List<List<Map.Entry<String, byte[]>>> rounds = new ArrayList<>();
      String after = "";
      for (String cutoff : cutoffs) {
        List<Map.Entry<String, byte[]>> round = new ArrayList<>();
        for (FileEntry f : files) {
          String name = f.name();
          boolean instant = Character.isDigit(name.charAt(0));
          String time = instant ? name.substring(0, 17) : "";
          boolean inRound =
              instant ? time.compareTo(after) > 0 && time.compareTo(cutoff) <= 0 : after.isEmpty();
          if (inRound) {
            round.add(Map.entry(name, memory.read(f.location())));
          }
        }
        rounds.add(round);
        after = cutoff;
      }
      return rounds;
    }
  }

  private static Outcome archiveInRounds(
      Backend backend, List<List<Map.Entry<String, byte[]>>> rounds) throws Exception {
    Map<String, String> config = new HashMap<>(backend.config());
    config.put("hoodie.keep.min.commits", "10");
    config.put("hoodie.keep.max.commits", "20");
    List<String> byRun = new ArrayList<>();
    StorageLocation meta = backend.base().resolve(".hoodie");
    try (MetaStorage storage = MetaStorages.open(backend.base(), backend.config())) {
      for (List<Map.Entry<String, byte[]>> round : rounds) {
        for (Map.Entry<String, byte[]> file : round) {
          storage.createExclusive(meta.resolve(file.getKey()), file.getValue());
        }
        try (TimelineArchiver archiver = TimelineArchiver.open(backend.base().toString(), config)) {
          ArchiveResult result = archiver.archiveIfRequired();
          byRun.add(result.archivedByAction().toString());
        }
      }
      List<String> active = ActiveInstantFiles.in(storage, meta);
      List<String> archived = new ArrayList<>();
      List<byte[]> raw = new ArrayList<>();
      for (ArchivedInstant a :
          ArchivedTimeline.load(storage, meta.resolve("archived"), ArchiveReadOptions.all())
              .instants()) {
        archived.add(a.instant().toString());
        Optional<byte[]> bytes = a.rawBytes();
        raw.add(bytes.orElse(null));
      }
      LOG.info(
          "{}: runs archived {}; {} active instant files; {} archived entries in {}",
          backend.name(),
          byRun,
          active.size(),
          archived.size(),
          storage.list(meta.resolve("archived")).toList().stream()
              .map(FileEntry::name)
              .filter(n -> n.startsWith(".commits_"))
              .toList());
      return new Outcome(active, archived, raw, byRun);
    }
  }
}
