import os
import unittest
from unittest import mock

from robotctl_sdk import DaemonError, Robot, create_head_pose
from robotctl_sdk.robot import DEFAULT_DAEMON_URL, daemon_url

from .recorder import IDENTITY, Recorder


class RobotClientTest(unittest.TestCase):
    def setUp(self):
        self.rec = Recorder()
        self.robot = Robot(self.rec.url).connect()

    def tearDown(self):
        self.robot.close()
        self.rec.close()

    def test_set_target_body(self):
        self.robot.set_target(head=create_head_pose(), antennas=[0.1, -0.2], body_yaw=0.3)
        self.assertEqual(self.rec.bodies("/api/move/set_target"), [
            {"target_head_pose": {"m": IDENTITY}, "target_antennas": [0.1, -0.2], "target_body_yaw": 0.3},
        ])

    def test_set_target_sends_only_given_parts(self):
        self.robot.set_target(antennas=(0.5, 0.5))
        self.assertEqual(self.rec.bodies("/api/move/set_target"), [{"target_antennas": [0.5, 0.5]}])

    def test_head_is_row_major(self):
        pose = create_head_pose(x=0.01, y=0.02, z=0.03)
        self.robot.set_target(head=pose)
        m = self.rec.bodies("/api/move/set_target")[0]["target_head_pose"]["m"]
        self.assertEqual(m[3], 0.01)
        self.assertEqual(m[7], 0.02)
        self.assertEqual(m[11], 0.03)

    def test_validation_messages(self):
        cases = [
            (dict(), "At least one of head, antennas or body_yaw must be provided."),
            (dict(head=[[1, 0, 0], [0, 1, 0], [0, 0, 1]]), "Head pose must be a 4x4 matrix, got shape (3, 3)."),
            (dict(antennas=[1, 2, 3]), "Antennas must be a list or 1D np array with two elements."),
            (dict(body_yaw="left"), "body_yaw must be a float."),
        ]
        for kwargs, message in cases:
            with self.assertRaises(ValueError) as ctx:
                self.robot.set_target(**kwargs)
            self.assertEqual(str(ctx.exception), message)
        self.assertEqual(self.rec.bodies("/api/move/set_target"), [])

    def test_goto_waits_and_sends_interpolation(self):
        uuid = self.robot.goto_target(antennas=[0.2, 0.2], duration=0.1, method="linear")
        body = self.rec.bodies("/api/move/goto")[0]
        self.assertEqual(body, {"head_pose": None, "antennas": [0.2, 0.2], "body_yaw": 0.0,
                                "duration": 0.1, "interpolation": "linear"})
        self.assertNotIn(uuid, self.rec.running)

    def test_goto_errors(self):
        with self.assertRaises(ValueError) as ctx:
            self.robot.goto_target(head=create_head_pose(), duration=0)
        self.assertEqual(str(ctx.exception),
                         "Duration must be positive and non-zero. Use set_target() for immediate position setting.")
        with self.assertRaises(ValueError) as ctx:
            self.robot.goto_target(body_yaw=None)
        self.assertEqual(str(ctx.exception), "At least one of head, antennas or body_yaw must be provided.")
        with self.assertRaises(ValueError):
            self.robot.goto_target(head=create_head_pose(), method="teleport")

    def test_keep_alive_one_connection_for_many_calls(self):
        for _ in range(50):
            self.robot.set_target(antennas=[0, 0])
        self.assertEqual(self.rec.connections, 1)

    def test_reconnects_when_daemon_closes(self):
        self.rec.close_next = True
        self.robot.set_target(antennas=[0, 0])
        self.robot.set_target(antennas=[0, 0])
        self.assertEqual(len(self.rec.bodies("/api/move/set_target")), 2)
        self.assertEqual(self.rec.connections, 2)

    def test_state_reads(self):
        self.assertEqual(self.robot.get_current_head_pose(), create_head_pose())
        self.assertEqual(self.robot.get_present_antenna_joint_positions(), [-0.1745, 0.1745])
        self.assertEqual(self.robot.get_present_body_yaw(), 0.25)
        self.assertEqual(self.robot.get_current_joint_positions(), ([0.0] * 7, [0.1, -0.1]))

    def test_wake_up_and_sleep_wait_for_the_move(self):
        self.robot.wake_up()
        self.robot.goto_sleep()
        self.assertEqual(self.rec.running, [])

    def test_daemon_error(self):
        with self.assertRaises(DaemonError) as ctx:
            self.robot.request("GET", "/api/nope")
        self.assertEqual(ctx.exception.status, 404)
        self.assertIn("Not Found", str(ctx.exception))


class DaemonUrlTest(unittest.TestCase):
    def test_default_is_the_real_daemon(self):
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertEqual(daemon_url(), DEFAULT_DAEMON_URL)
            self.assertEqual(DEFAULT_DAEMON_URL, "http://127.0.0.1:8000")

    def test_env_and_argument(self):
        with mock.patch.dict(os.environ, {"ROBOT_DAEMON_URL": "http://127.0.0.1:9"}):
            self.assertEqual(daemon_url(), "http://127.0.0.1:9")
            self.assertEqual(daemon_url("http://h:1"), "http://h:1")

    def test_unreachable_daemon_says_so(self):
        robot = Robot("http://127.0.0.1:9", timeout=0.2)
        with self.assertRaises(ConnectionError) as ctx:
            robot.connect()
        self.assertIn("Cannot reach the robot daemon at http://127.0.0.1:9", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
