// The test suite's S3 server (s3rver behind our signature-checking edge) in a process of its own, so that the
// load bench's S3 runs do not share the bench's event loop. Prints where it is as one JSON line; SIGTERM stops it.
import { startS3Server } from "../../scripts/lib/s3-server.mjs";

const server = await startS3Server({ port: 0, dir: process.argv[2] });
const { endpoint, bucket, accessKeyId, secretAccessKey } = server;
process.stdout.write(`${JSON.stringify({ endpoint, bucket, accessKeyId, secretAccessKey })}\n`);
process.on("SIGTERM", () => {
  void server.stop().then(() => process.exit(0));
});
