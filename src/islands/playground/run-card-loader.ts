// Loads the run card's code: the runs panel renders it lazily, and a submit starts the load before the first card
// shows.
export const loadRunCard = () => import('./RunCard');
