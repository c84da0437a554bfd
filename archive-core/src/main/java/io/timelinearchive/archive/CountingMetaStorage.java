package io.timelinearchive.archive;

import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.ForwardingAppendableLog;
import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.RequestCounts;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the calls made to another storage, by kind, for the archiver's result and for benchmarks
 * comparing a run with the fewest requests it could make. Thread-safe. A call counts when it is
 * made, whether it succeeds or not. Closing this closes the counted storage. {@link
 * #serviceRequests} passes on the counted storage's own counts of its service's requests, where it
 * keeps them, and is empty otherwise.
 */
final class CountingMetaStorage extends ForwardingMetaStorage {
  private final LongAdder list = new LongAdder();
  private final LongAdder read = new LongAdder();
  private final LongAdder open = new LongAdder();
  private final LongAdder createExclusive = new LongAdder();
  private final LongAdder openLog = new LongAdder();
  private final LongAdder append = new LongAdder();
  private final LongAdder deletedFiles = new LongAdder();
  private final LongAdder deleteCalls = new LongAdder();

  CountingMetaStorage(MetaStorage delegate) {
    super(delegate);
  }

  /**
   * The counts so far. Each count is exact for the calls made before this was called; while calls
   * run in other threads, the counts of different kinds may be taken at slightly different times.
   */
  RequestCounts counts() {
    return new RequestCounts(
        list.sum(),
        read.sum(),
        open.sum(),
        createExclusive.sum(),
        openLog.sum(),
        append.sum(),
        deletedFiles.sum(),
        deleteCalls.sum());
  }

  @Override
  public FileIterator list(StorageLocation folder) throws IOException {
    list.increment();
    return delegate.list(folder);
  }

  @Override
  public List<StorageLocation> listFolders(StorageLocation folder) throws IOException {
    list.increment();
    return delegate.listFolders(folder);
  }

  @Override
  public byte[] read(StorageLocation file) throws IOException {
    read.increment();
    return delegate.read(file);
  }

  @Override
  public InputStream open(StorageLocation file) throws IOException {
    open.increment();
    return delegate.open(file);
  }

  @Override
  public void createExclusive(StorageLocation file, byte[] content) throws IOException {
    createExclusive.increment();
    delegate.createExclusive(file, content);
  }

  @Override
  public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    openLog.increment();
    return delegate.openLog(file).map(CountingLog::new);
  }

  @Override
  public void deleteAll(Collection<StorageLocation> files) throws IOException {
    // An empty call counts too: it shows a caller making calls it need not make.
    deleteCalls.increment();
    deletedFiles.add(files.size());
    delegate.deleteAll(files);
  }

  private final class CountingLog extends ForwardingAppendableLog {
    CountingLog(AppendableLog log) {
      super(log);
    }

    @Override
    public void append(byte[] bytes) throws IOException {
      append.increment();
      delegate.append(bytes);
    }
  }
}
