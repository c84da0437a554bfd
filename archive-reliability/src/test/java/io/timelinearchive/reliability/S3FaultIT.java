package io.timelinearchive.reliability;

import io.timelinearchive.testing.FaultProxy.Fault;
import io.timelinearchive.testing.FaultProxy.Request;

/** Store faults on S3Proxy. */
class S3FaultIT extends AbstractFaultIT {
  @Override
  Store store() {
    return Store.s3();
  }

  @Override
  String endpointKey() {
    return "s3.endpoint";
  }

  @Override
  Fault error(int status) {
    return Fault.respond(
        status,
        switch (status) {
          case 503 -> "SlowDown";
          case 429 -> "TooManyRequests";
          default -> "InternalError";
        });
  }

  // a PUT of a whole object, not of a multipart upload's part
  @Override
  boolean write(Request r) {
    return r.isPutObject();
  }

  @Override
  boolean list(Request r) {
    return r.method().equals("GET") && r.query().contains("list-type=");
  }

  // the S3 backend deletes everything with DeleteObjects, the lock included
  @Override
  boolean delete(Request r) {
    return r.isDeleteObjects();
  }
}
