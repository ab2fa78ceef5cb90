// "Play the computer" from a lesson's last screen or a rules page, as the front door does it:
// a room of the game with the visitor in it, a computer player in every other seat, ready;
// then the room's page. Loaded only by learn.js and rules.js.

/** Makes the room and goes to it; resolves with the refusal's words when no room was made. */
export async function playComputer(net, game, players, go) {
  const m = await net.request({ t: 'create', game });
  if (m.t !== 'joined') return m.message || 'no room could be made';
  for (let i = 1; i < players; i += 1) net.send({ t: 'add_bot', room: m.room, level: 2 });
  net.send({ t: 'ready', room: m.room });
  go(`/r/${m.room}`);
  return null;
}
