import net, { type AddressInfo } from "node:net";
import { BSON, type Document } from "mongodb";

/**
 * A small stand-in for Amazon DocumentDB 4.0 (no MongoDB-compatible server installs here): a TCP
 * server on 127.0.0.1:0 speaking the MongoDB wire protocol with the driver's own BSON. It answers
 * the legacy OP_QUERY handshake and OP_MSG commands: hello/isMaster (wire version 7, as
 * DocumentDB 4.0), ping, endSessions, saslStart (always refused), aggregate (countDocuments) and
 * find. Only the connector's plumbing is tested with it, never query semantics.
 */

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

export interface DocumentDbFake {
  /** A connection string for the fake; with credentials, sign-in is refused as wrong. */
  url(credentials?: string): string;
  /** Every command name received, in order. */
  commands: string[];
  close(): Promise<void>;
}

export interface FakeBehaviour {
  /** Document counts per collection; any other collection is empty, as on a real server. */
  collections: Record<string, number>;
  /** Collections whose aggregate is never answered (a timeout). */
  silent?: string[];
  /** Collections whose aggregate drops the connection. */
  dropping?: string[];
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const buffer = Buffer.alloc(16);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(requestId, 4);
  buffer.writeInt32LE(responseTo, 8);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

function opMsg(responseTo: number, doc: Document): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const flags = Buffer.alloc(5); // flagBits 0, then section kind 0
  return Buffer.concat([header(16 + 5 + body.length, 0, responseTo, OP_MSG), flags, body]);
}

function opReply(responseTo: number, doc: Document): Buffer {
  const body = Buffer.from(BSON.serialize(doc));
  const fields = Buffer.alloc(20); // responseFlags, cursorID (8), startingFrom, numberReturned
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(16 + 20 + body.length, 0, responseTo, OP_REPLY), fields, body]);
}

/** The command document of a request, whichever of the two opcodes carried it. */
function commandOf(message: Buffer): { opCode: number; requestId: number; doc: Document } {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_QUERY) {
    const nameEnd = message.indexOf(0, 20);
    const at = nameEnd + 1 + 8; // numberToSkip, numberToReturn
    return {
      opCode,
      requestId,
      doc: BSON.deserialize(message.subarray(at, at + message.readInt32LE(at))),
    };
  }
  // OP_MSG: flagBits, then the kind-0 section holding the command (the driver sends it first).
  const at = 21;
  return {
    opCode,
    requestId,
    doc: BSON.deserialize(message.subarray(at, at + message.readInt32LE(at))),
  };
}

export async function startDocumentDbFake(behaviour: FakeBehaviour): Promise<DocumentDbFake> {
  const commands: string[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;

  const answer = (doc: Document, socket: net.Socket): Document | undefined => {
    const name = Object.keys(doc)[0] ?? "";
    commands.push(name);
    switch (name) {
      case "hello":
      case "isMaster":
      case "ismaster":
        return {
          helloOk: true,
          ismaster: true,
          isWritablePrimary: true,
          maxBsonObjectSize: 16 * 1024 * 1024,
          maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000,
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId: ++connections,
          minWireVersion: 0,
          maxWireVersion: 7,
          readOnly: false,
          ok: 1,
        };
      case "ping":
      case "endSessions":
        return { ok: 1 };
      case "saslStart":
        return {
          ok: 0,
          errmsg: "Authentication failed.",
          code: 18,
          codeName: "AuthenticationFailed",
        };
      case "aggregate": {
        const collection = String(doc.aggregate);
        if (behaviour.silent?.includes(collection)) return undefined;
        if (behaviour.dropping?.includes(collection)) {
          socket.destroy();
          return undefined;
        }
        const count = behaviour.collections[collection];
        const firstBatch = count === undefined ? [] : [{ _id: 1, n: count }];
        return {
          cursor: { firstBatch, id: BSON.Long.ZERO, ns: `${String(doc.$db)}.${collection}` },
          ok: 1,
        };
      }
      case "find":
        return {
          cursor: {
            firstBatch: [],
            id: BSON.Long.ZERO,
            ns: `${String(doc.$db)}.${String(doc.find)}`,
          },
          ok: 1,
        };
      default:
        return {
          ok: 0,
          errmsg: `no such command: '${name}'`,
          code: 59,
          codeName: "CommandNotFound",
        };
    }
  };

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let pending = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const message = pending.subarray(0, pending.readInt32LE(0));
        pending = pending.subarray(message.length);
        const { opCode, requestId, doc } = commandOf(message);
        const reply = answer(doc, socket);
        if (reply && !socket.destroyed)
          socket.write(opCode === OP_QUERY ? opReply(requestId, reply) : opMsg(requestId, reply));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (credentials) =>
      `mongodb://${credentials ? `${credentials}@` : ""}127.0.0.1:${port}/?directConnection=true`,
    commands,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
