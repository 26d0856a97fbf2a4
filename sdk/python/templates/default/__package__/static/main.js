const box = document.getElementById('antennas');
const status = document.getElementById('status');

box.addEventListener('change', async () => {
  try {
    const resp = await fetch('/antennas', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ enabled: box.checked }),
    });
    const data = await resp.json();
    status.textContent = data.antennas_enabled ? 'Antennas moving' : 'Antennas still';
  } catch (err) {
    status.textContent = `Could not reach the app: ${err}`;
  }
});
