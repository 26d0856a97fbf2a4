// The simulated robot's own kinematic model for /api/kinematics/urdf and its
// meshes for /api/kinematics/stl/<file>: a body that turns (body_yaw), a
// head on a pitch–roll–yaw chain standing for the Stewart platform, and two
// antennas, in metres. Written for robotctl (the real daemon serves Pollen's
// model); the shapes are plain boxes and cylinders, sized like a Reachy Mini.

type Vec = [number, number, number];

export const MESHES: Record<string, () => Buffer> = {
  'body.stl': () => cylinder(0.08, 0.18),
  'head.stl': () => box(0.16, 0.12, 0.1),
  'antenna.stl': () => cylinder(0.006, 0.09),
};

function binaryStl(triangles: [Vec, Vec, Vec][]): Buffer {
  const out = Buffer.alloc(84 + triangles.length * 50);
  out.write('robotctl simulated Reachy Mini', 0, 'ascii');
  out.writeUInt32LE(triangles.length, 80);
  triangles.forEach((tri, i) => {
    const [a, b, c] = tri;
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const len = Math.hypot(...n) || 1;
    const values = [...n.map((x) => x / len), ...a, ...b, ...c];
    values.forEach((x, j) => out.writeFloatLE(x, 84 + i * 50 + j * 4));
  });
  return out;
}

function box(x: number, y: number, z: number): Buffer {
  const p = (i: number): Vec => [(i & 1 ? 0.5 : -0.5) * x, (i & 2 ? 0.5 : -0.5) * y, (i & 4 ? 0.5 : -0.5) * z];
  const faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  return binaryStl(faces.flatMap(([a, b, c, d]) => [[p(a!), p(b!), p(c!)], [p(a!), p(c!), p(d!)]] as [Vec, Vec, Vec][]));
}

function cylinder(r: number, h: number, n = 24): Buffer {
  const tris: [Vec, Vec, Vec][] = [];
  const at = (k: number, z: number): Vec => [r * Math.cos((2 * Math.PI * k) / n), r * Math.sin((2 * Math.PI * k) / n), z];
  for (let k = 0; k < n; k++) {
    tris.push([at(k, 0), at(k + 1, h), at(k, h)], [at(k, 0), at(k + 1, 0), at(k + 1, h)]);
    tris.push([[0, 0, 0], at(k + 1, 0), at(k, 0)], [[0, 0, h], at(k, h), at(k + 1, h)]);
  }
  return binaryStl(tris);
}

const link = (name: string, mesh?: string, xyz = '0 0 0'): string => mesh
  ? `  <link name="${name}"><visual><origin xyz="${xyz}"/><geometry><mesh filename="assets/${mesh}"/></geometry></visual></link>`
  : `  <link name="${name}"/>`;

const joint = (name: string, parent: string, child: string, axis: string, xyz: string, lower: number, upper: number): string =>
  `  <joint name="${name}" type="revolute"><parent link="${parent}"/><child link="${child}"/><origin xyz="${xyz}"/><axis xyz="${axis}"/>` +
  `<limit lower="${lower}" upper="${upper}" effort="1" velocity="6"/></joint>`;

const rad = (deg: number): number => Number(((deg * Math.PI) / 180).toFixed(4));

/** The URDF (limits as the robot's documented ones: body ±160°, head pitch/roll ±40°, head yaw ±180°, antennas ±π). */
export function urdf(): string {
  return [
    '<?xml version="1.0"?>',
    '<robot name="reachy_mini_simulated">',
    link('world'),
    link('body', 'body.stl'),
    joint('body_yaw', 'world', 'body', '0 0 1', '0 0 0', rad(-160), rad(160)),
    link('head_pitch_link'), link('head_roll_link'), link('head', 'head.stl'),
    joint('head_pitch', 'body', 'head_pitch_link', '0 1 0', '0 0 0.22', rad(-40), rad(40)),
    joint('head_roll', 'head_pitch_link', 'head_roll_link', '1 0 0', '0 0 0', rad(-40), rad(40)),
    joint('head_yaw', 'head_roll_link', 'head', '0 0 1', '0 0 0', rad(-180), rad(180)),
    link('left_antenna', 'antenna.stl'), link('right_antenna', 'antenna.stl'),
    joint('left_antenna', 'head', 'left_antenna', '0 1 0', '0 0.04 0.05', -3.1416, 3.1416),
    joint('right_antenna', 'head', 'right_antenna', '0 1 0', '0 -0.04 0.05', -3.1416, 3.1416),
    '</robot>',
    '',
  ].join('\n');
}
