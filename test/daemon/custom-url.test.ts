import t from 'tap';
import { customAppUrlIn } from '../../runtime/daemon/apps/custom-url.js';

t.test('custom_app_url is read from the class attribute in the app source', async (t) => {
  t.equal(customAppUrlIn('class A(ReachyMiniApp):\n    custom_app_url = "http://0.0.0.0:8042"\n'), 'http://0.0.0.0:8042');
  t.equal(customAppUrlIn("class A(ReachyMiniApp):\n    custom_app_url: str | None = 'http://0.0.0.0:9000'\n"), 'http://0.0.0.0:9000');
  t.equal(customAppUrlIn('class A(ReachyMiniApp):\n    custom_app_url = None\n'), null, 'None means no web UI');
  t.equal(customAppUrlIn('custom_app_url = "http://x"\n'), null, 'a module-level name is not the class attribute');
  t.equal(customAppUrlIn('class A(ReachyMiniApp):\n    def run(self):\n        pass\n'), null);
});
