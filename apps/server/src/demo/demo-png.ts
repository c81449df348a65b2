import { crc32, deflateSync } from "node:zlib";

/*
 * Tiny made-up browser screenshots for the demo runs: a page with a header bar, a sidebar, text
 * lines and the element a step acted on, outlined in red on an error screenshot. Encoded as PNG
 * by hand (signature, IHDR, IDAT, IEND) so that no image library is needed.
 */

const WIDTH = 240;
const HEIGHT = 150;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type Rgb = readonly [number, number, number];

const PAGE: Rgb = [246, 247, 249];
const SIDEBAR: Rgb = [226, 230, 235];
const TEXT: Rgb = [190, 196, 204];
const ERROR: Rgb = [211, 47, 47];
const HEADER: Record<ScreenshotPlatform, Rgb> = {
  legacy: [25, 90, 160],
  nextGen: [0, 121, 107],
};

export type ScreenshotPlatform = "legacy" | "nextGen";

class Canvas {
  readonly pixels = Buffer.alloc(WIDTH * HEIGHT * 3);

  fill(x: number, y: number, width: number, height: number, [r, g, b]: Rgb): void {
    for (let row = Math.max(0, y); row < Math.min(HEIGHT, y + height); row++) {
      for (let col = Math.max(0, x); col < Math.min(WIDTH, x + width); col++) {
        const at = (row * WIDTH + col) * 3;
        this.pixels[at] = r;
        this.pixels[at + 1] = g;
        this.pixels[at + 2] = b;
      }
    }
  }

  outline(x: number, y: number, width: number, height: number, colour: Rgb): void {
    this.fill(x, y, width, 2, colour);
    this.fill(x, y + height - 2, width, 2, colour);
    this.fill(x, y, 2, height, colour);
    this.fill(x + width - 2, y, 2, height, colour);
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function encode(canvas: Canvas): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  // Each scanline starts with its filter type; 0 (none) keeps the encoder trivial.
  const raw = Buffer.alloc(HEIGHT * (WIDTH * 3 + 1));
  for (let row = 0; row < HEIGHT; row++) {
    canvas.pixels.copy(raw, row * (WIDTH * 3 + 1) + 1, row * WIDTH * 3, (row + 1) * WIDTH * 3);
  }
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function draw(platform: ScreenshotPlatform, variant: number, error: boolean): Buffer {
  const canvas = new Canvas();
  canvas.fill(0, 0, WIDTH, HEIGHT, PAGE);
  canvas.fill(0, 0, WIDTH, 16, HEADER[platform]);
  canvas.fill(0, 16, 48, HEIGHT - 16, SIDEBAR);
  for (let line = 0; line < 8; line++) {
    const width = 60 + ((variant * 37 + line * 23) % 110);
    canvas.fill(60, 28 + line * 13, width, 5, TEXT);
  }
  // The element the step acted on moves with the step, so consecutive screenshots differ.
  const target = { x: 60 + (variant % 3) * 55, y: 30 + (variant % 4) * 26, width: 50, height: 16 };
  canvas.fill(target.x, target.y, target.width, target.height, HEADER[platform]);
  if (error) {
    canvas.fill(60, 20, WIDTH - 70, 5, ERROR);
    canvas.outline(target.x - 4, target.y - 4, target.width + 8, target.height + 8, ERROR);
  }
  return encode(canvas);
}

const VARIANTS = 6;
const cache = new Map<string, string>();

/**
 * A screenshot as base64 PNG (about 1 KB). There are only a few distinct images, so each is drawn
 * once and reused.
 */
export function screenshotBase64(
  platform: ScreenshotPlatform,
  step: number,
  error = false,
): string {
  const variant = step % VARIANTS;
  const key = `${platform}:${variant}:${error}`;
  let image = cache.get(key);
  if (image === undefined) {
    image = draw(platform, variant, error).toString("base64");
    cache.set(key, image);
  }
  return image;
}
