// Wire shapes and messages of the Reachy Mini daemon's identity and update
// routes (spec/robot-daemon.md §9; reachy_mini/daemon/app/routers/daemon.py
// and update.py): what the daemon driver reads and the simulated daemon
// answers. Both sides import them from here.

/** `GET /api/daemon/hardware-id`: a 16-hex-digit hash of the audio device's USB serial; null with no robot attached. */
export interface HardwareIdAnswer {
  hardware_id: string | null;
}

/** `GET|POST /api/daemon/robot-name`. */
export interface RobotNameAnswer {
  name: string | null;
}

/** `GET /api/update/available?pre_release=…` */
export interface UpdateAvailableAnswer {
  update: {
    reachy_mini: {
      is_available: boolean;
      current_version: string;
      /** `unknown` when the daemon could not reach PyPI. */
      available_version: string;
    };
  };
}

/** `GET /api/update/install-source`: where the installed reachy_mini came from. */
export interface InstallSource {
  version: string;
  source: 'pypi' | 'git' | 'editable';
  git_ref?: string;
  commit?: string;
}

/** The command name of the update job (bg_job_register.run_command). */
export const UPDATE_JOB = 'update_reachy_mini';

/** The restart an update ends with: once this line is logged the daemon goes away and comes back with the new version. */
export const RESTART_COMMAND = 'sudo systemctl restart reachy-mini-daemon';

/** The daemon's own words (HTTP 400 details, the 422 of a rename). */
export const DAEMON_MESSAGES = {
  updateInProgress: 'Update is in progress',
  updateAlreadyInProgress: 'Update already in progress',
  noUpdateAvailable: 'No update available',
  emptyRef: 'Git ref cannot be empty',
  invalidRobotName: 'Invalid robot name',
  jobNotFound: 'Job ID not found',
} as const;
