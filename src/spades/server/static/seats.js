// The seats and teams as the page names them: the one list of seat names every
// part of the page (the table, the replay, the review, a table with friends) uses.

export const SEATS = ["N", "E", "S", "W"];
export const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
export const TEAM_OF = { N: "NS", S: "NS", E: "EW", W: "EW" };
export const TEAM_LABELS = { NS: "North-South", EW: "East-West" };
export const PARTNER = { N: "S", S: "N", E: "W", W: "E" };

export const nextSeat = (seat) => SEATS[(SEATS.indexOf(seat) + 1) % 4];
