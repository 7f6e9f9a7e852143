/** What a screen's route says of it: its title, and who may open it (the shells' guards read it). */
export type RouteHandle = {
  title: string;
  noBranch?: boolean;
  adminOnly?: boolean;
  /** Add-account screens: the kind flag preset on the new account. */
  /** A screen that is only a way to another: a drawing on the server answers with this address (entry-server.tsx). */
  serverRedirect?: string;
  preset?: 'isOwner' | 'isClient' | 'isPartnerRealEstate' | 'isProfessional' | 'isSource' | 'isEmploye' | 'hasTransactions';
};
