const post = (path, body) => fetch(path, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
}).then((r) => r.json());

document.getElementById('prompt').addEventListener('change', (e) => post('/personality', { prompt: e.target.value }));

document.getElementById('say').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = document.getElementById('text');
  await post('/say', { text: input.value });
  input.value = '';
});

setInterval(async () => {
  const items = await fetch('/history').then((r) => r.json());
  const list = document.getElementById('history');
  list.replaceChildren(...items.map((i) => {
    const li = document.createElement('li');
    li.textContent = `${i.heard} → ${i.said}`;
    return li;
  }));
}, 1000);
