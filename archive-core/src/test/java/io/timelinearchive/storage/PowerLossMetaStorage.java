package io.timelinearchive.storage;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The local backend's durability contract as a model of a power loss (see {@code
 * LocalMetaStorage}): what a create or an append wrote is durable when it returns, and deletes are
 * durable in the order they were made, the first operation in another folder (or any create or
 * append) making the earlier ones durable. So a power loss may undo a trailing run of deletes in
 * one folder, newest first, and nothing else. This store records that run; {@link #powerLoss}
 * undoes the newest of them on the store below, as the disk would show them after the restart.
 */
public final class PowerLossMetaStorage extends ForwardingMetaStorage {
  private record Deleted(StorageLocation file, byte[] content) {}

  private final List<Deleted> lossable = new ArrayList<>();
  private StorageLocation lossableFolder;

  public PowerLossMetaStorage(MetaStorage delegate) {
    super(delegate);
  }

  /** The deletes a power loss now could undo. */
  public synchronized int lossable() {
    return lossable.size();
  }

  /** Undoes the newest {@code deletes} of the lossable ones, as a power loss may. */
  public synchronized void powerLoss(int deletes) throws IOException {
    if (deletes < 0 || deletes > lossable.size()) {
      throw new IllegalArgumentException(deletes + " of " + lossable.size() + " lossable deletes");
    }
    for (int i = 0; i < deletes; i++) {
      Deleted d = lossable.remove(lossable.size() - 1);
      try {
        delegate.createExclusive(d.file(), d.content());
      } catch (FileAlreadyExistsException e) {
        throw new IllegalStateException(d.file() + " was created again after its delete", e);
      }
    }
  }

  @Override
  public synchronized void createExclusive(StorageLocation file, byte[] content)
      throws IOException {
    lossable.clear();
    delegate.createExclusive(file, content);
  }

  @Override
  public synchronized Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
    lossable.clear();
    return delegate
        .openLog(file)
        .map(
            log ->
                new ForwardingAppendableLog(log) {
                  @Override
                  public void append(byte[] bytes) throws IOException {
                    synchronized (PowerLossMetaStorage.this) {
                      lossable.clear();
                      super.append(bytes);
                    }
                  }
                });
  }

  @Override
  public synchronized void deleteAll(Collection<StorageLocation> files) throws IOException {
    List<Deleted> deleting = new ArrayList<>();
    for (StorageLocation file : files) {
      if (!file.parent().equals(lossableFolder)) {
        lossable.clear();
        lossableFolder = file.parent();
      }
      try {
        deleting.add(new Deleted(file, delegate.read(file)));
      } catch (NoSuchFileException e) {
        // nothing to undo
      }
    }
    delegate.deleteAll(files);
    lossable.addAll(deleting);
  }
}
