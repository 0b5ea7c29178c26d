/**
 * The sample clip offered on the landing page and in the Studio, drawn by ffmpeg from nothing
 * (a sky gradient, a ground, a shaded ball bouncing across), so no footage with a licence of
 * its own ships with Keyout. 5 s, 640x360, 25 fps, H.264 MP4 that browsers play and decode.
 */
export const SAMPLE_CLIP = { width: 640, height: 360, fps: 25, seconds: 5 } as const;

const BALL =
  'color=c=black:s=160x160:r=25:d=0.04,format=rgba,' +
  "geq=r='clip(250*(1.15-hypot(X-58,Y-52)/95),0,255)'" +
  ":g='clip(120*(1.15-hypot(X-58,Y-52)/95)+70*exp(-hypot(X-55,Y-48)/14),0,255)'" +
  ":b='clip(30*(1.1-hypot(X-58,Y-52)/95)+90*exp(-hypot(X-55,Y-48)/14),0,255)'" +
  ":a='clip(255*(78.5-hypot(X-80,Y-80)),0,255)',loop=loop=-1:size=1";

export function sampleClipArgs(out: string): string[] {
  const { width, height, fps, seconds } = SAMPLE_CLIP;
  const sky =
    `gradients=s=${width}x${height}:r=${fps}:c0=0x1e3a8aff:` +
    'c1=0x38bdf8ff:c2=0xfde68aff:n=3:x0=0:y0=0:x1=0:y1=300:' +
    `speed=0.01:d=${seconds},` +
    (`drawbox=x=0:y=290:w=iw:h=70:color=0x4d7c0f@1:t=fill,` +
      `drawbox=x=0:y=290:w=iw:h=4:color=0x365314@1:t=fill`);
  return [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    sky,
    '-f',
    'lavfi',
    '-i',
    BALL,
    '-filter_complex',
    "[0:v][1:v]overlay=x='60+(W-280)*(0.5+0.5*sin(t*1.3))':" +
      "y='H-215-140*abs(sin(t*2.4))':format=auto:shortest=1," +
      'format=yuv420p[v]',
    '-map',
    '[v]',
    '-c:v',
    'libx264',
    '-preset',
    'medium',
    '-crf',
    '23',
    '-movflags',
    '+faststart',
    '-t',
    String(seconds),
    out,
  ];
}
