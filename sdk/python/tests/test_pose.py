import math
import unittest

from reachy_mini.utils import create_head_pose
from reachy_mini.utils.pose import euler_xyz_to_matrix, shape_of, to_plain



def pose(**kw):
    """create_head_pose as lists (it returns a numpy array where numpy is installed)."""
    return to_plain(create_head_pose(**kw))

def apply(m, v):
    return [sum(m[i][k] * v[k] for k in range(3)) for i in range(3)]


class CreateHeadPoseTest(unittest.TestCase):
    def assertVec(self, got, want):
        for g, w in zip(got, want):
            self.assertAlmostEqual(g, w, places=9)

    def test_identity(self):
        self.assertEqual(pose(), [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])

    def test_translation_metres_and_mm(self):
        self.assertVec([r[3] for r in pose(x=0.01, y=0.02, z=0.03)], [0.01, 0.02, 0.03, 1])
        self.assertVec([r[3] for r in pose(x=10, z=-5, mm=True)], [0.01, 0, -0.005, 1])

    def test_degrees_and_radians_agree(self):
        a = pose(roll=10, pitch=-20, yaw=30)
        b = pose(roll=math.radians(10), pitch=math.radians(-20), yaw=math.radians(30), degrees=False)
        for ra, rb in zip(a, b):
            self.assertVec(ra, rb)

    def test_extrinsic_xyz_order(self):
        # Extrinsic xyz (scipy "xyz"): roll about fixed x first, yaw about fixed z last.
        r = euler_xyz_to_matrix(math.pi / 2, 0, math.pi / 2)
        self.assertVec(apply(r, [0, 1, 0]), [0, 0, 1])
        self.assertVec(apply(r, [1, 0, 0]), [0, 1, 0])

    def test_known_matrix_matches_scipy(self):
        # scipy: Rotation.from_euler("xyz", [10, 20, 30], degrees=True).as_matrix()
        want = [[0.81379768, -0.44096961, 0.37852231],
                [0.46984631, 0.88256412, 0.01802831],
                [-0.34202014, 0.16317591, 0.92541658]]
        got = pose(roll=10, pitch=20, yaw=30)
        for i in range(3):
            for j in range(3):
                self.assertAlmostEqual(got[i][j], want[i][j], places=7)

    def test_shape_of(self):
        self.assertEqual(shape_of([[0] * 4] * 4), (4, 4))
        self.assertEqual(shape_of([[0] * 3] * 3), (3, 3))
        self.assertEqual(shape_of([1, 2]), (2,))
        self.assertEqual(shape_of(3), ())


if __name__ == "__main__":
    unittest.main()
