package io.timelinearchive.storage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobType;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The archiver end to end on Azurite, as it runs on a table in ADLS: through the abfs URI. */
@ExtendWith(Azurite.Extension.class)
class TestAzureArchivalAzurite {
  /** 40 commits and 10 cleans (150 files), over Hudi's default limits of 20 to 30 commits. */
  private static final SampleTable.Spec SPEC =
      new SampleTable.Spec(40, false, 0, 4, 0, 0, false, LocalDateTime.of(2026, 3, 1, 0, 0), 11);

  @Test
  void threeRunsAppendToOneAppendBlobThenAFourthRollsOverFromABlockBlob() throws Exception {
    BlobContainerClient container = Azurite.get().newContainer();
    StorageLocation base =
        Azurite.rootOf(container.getBlobContainerName()).resolve("warehouse/orders");
    StorageLocation meta;
    StorageLocation archiveFolder;
    InvariantChecker checker;
    Set<TimelineInstant> written;
    try (MetaStorage storage = MetaStorages.open(base, Azurite.get().config())) {
      written = new HashSet<>(SampleTable.write(storage, base, SPEC).files().values());
      HoodieTable table = HoodieTable.load(storage, base);
      meta = table.metaFolder();
      archiveFolder = table.archiveFolder();
      checker = new InvariantChecker(InvariantChecker.snapshot(storage, meta));
    }
    // Hudi archives once more than 30 commits are completed: with 3 instants per run, the 40
    // commits take four runs (40, 37, 34, 31 before them) to get under the limit.
    Map<String, String> config = new HashMap<>(Azurite.get().config());
    config.put(ArchivalPolicy.MAX_INSTANTS_PER_RUN.key(), "3");
    String archiveFile = ArchiveFileName.of(1);

    List<TimelineInstant> archived = new ArrayList<>();
    long length = 0;
    int blocks = 0;
    for (int run = 1; run <= 3; run++) {
      ArchiveResult result;
      try (TimelineArchiver archiver = TimelineArchiver.open(base.toString(), config)) {
        result = archiver.archiveIfRequired();
      }

      assertThat(result.archived()).as("run %d archived", run).isNotEmpty();
      assertThat(result.archiveFilesWritten()).as("run %d wrote", run).hasSize(1);
      ArchiveResult.WrittenFile file = result.archiveFilesWritten().get(0);
      assertThat(file.name()).isEqualTo(archiveFile);
      assertThat(file.appended()).as("run %d appended", run).isEqualTo(run > 1);
      BlobProperties blob =
          container.getBlobClient(archiveFolder.resolve(archiveFile).path()).getProperties();
      assertThat(blob.getBlobType()).isEqualTo(BlobType.APPEND_BLOB);
      long bytesWritten = file.bytesWritten();
      assertThat(blob.getBlobSize()).isEqualTo(length + bytesWritten);
      assertThat(blob.getCommittedBlockCount()).isGreaterThan(blocks);
      length = blob.getBlobSize();
      blocks = blob.getCommittedBlockCount();
      archived.addAll(result.archived());
    }

    // Hudi writing through ABFS leaves its archive files as block blobs. Make the archive file one
    // (same bytes): the next run cannot append to it and starts version 2, an append blob.
    BlobClient first = container.getBlobClient(archiveFolder.resolve(archiveFile).path());
    byte[] firstBytes = first.downloadContent().toBytes();
    first.delete();
    first.getBlockBlobClient().upload(BinaryData.fromBytes(firstBytes));
    ArchiveResult fourth;
    try (TimelineArchiver archiver = TimelineArchiver.open(base.toString(), config)) {
      fourth = archiver.archiveIfRequired();
    }
    assertThat(fourth.archived()).isNotEmpty();
    assertThat(fourth.archiveFilesWritten())
        .extracting(ArchiveResult.WrittenFile::name, ArchiveResult.WrittenFile::appended)
        .containsExactly(tuple(ArchiveFileName.of(2), false));
    assertThat(
            container
                .getBlobClient(archiveFolder.resolve(ArchiveFileName.of(2)).path())
                .getProperties()
                .getBlobType())
        .isEqualTo(BlobType.APPEND_BLOB);
    assertThat(first.downloadContent().toBytes()).isEqualTo(firstBytes);
    archived.addAll(fourth.archived());

    try (MetaStorage storage = MetaStorages.open(base, Azurite.get().config())) {
      // nothing lost or changed, no holes, nothing archived twice (a loss or a duplicate of an
      // earlier run would still show)
      assertThat(checker.check(storage, meta, archiveFolder)).isEmpty();
      ArchivedTimeline timeline =
          ArchivedTimeline.load(storage, archiveFolder, ArchiveReadOptions.all());
      assertThat(timeline.files()).hasSize(2);
      assertThat(timeline.instants())
          .extracting(ArchivedInstant::instant)
          .containsExactlyInAnyOrderElementsOf(archived)
          .doesNotHaveDuplicates();
      assertThat(written).containsAll(archived);
    } finally {
      container.delete();
    }
  }
}
