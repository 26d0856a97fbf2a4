import { IDENTITY, type Mat4 } from './pose.js';

// Reachy Mini reference poses (spec §7).
export const REST_HEAD: Mat4 = IDENTITY;
export const REST_ANTENNAS: [number, number] = [-0.1745, 0.1745];
export const SLEEP_ANTENNAS: [number, number] = [-3.05, 3.05];
export const SLEEP_HEAD: Mat4 = [
  0.911, 0.004, 0.413, -0.021,
  -0.004, 1.0, -0.001, 0.001,
  -0.413, -0.001, 0.911, -0.044,
  0, 0, 0, 1,
];
export const CONTROL_HZ = 50;
export const WAKE_UP_S = 2;
export const SLEEP_S = 2;
export const RETURN_S = 1;

export type MotorMode = 'enabled' | 'disabled' | 'gravity_compensation';
export const MOTOR_MODES: readonly MotorMode[] = ['enabled', 'disabled', 'gravity_compensation'];
