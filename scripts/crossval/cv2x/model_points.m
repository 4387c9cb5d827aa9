% PDR and its four error components against distance from the analytical model of
% Gonzalez-Martin, Sepulcre, Molina-Masegosa, Gozalvez, "Analytical Models of the
% Performance of C-V2X Mode 4 Vehicular Communications", IEEE TVT 68(2), 2019, evaluated
% with the authors' functions (github.com/msepulcre/C-V2X, on Octave's path) and
% combined by the paper's equations (6.1)-(6.5), (21) and (22), without the plots of
% their CV2XMode4.m. Needs GNU Octave with the statistics and signal packages.
%
%   octave-cli --path C-V2X --eval 'model_points(0.1, 10, 20, 4, 190, "out.csv")'
function model_points(beta, lambda, Pt, S, B, out)
  pkg load statistics
  pkg load signal
  distance = 0:25:500;
  Psen = -90.5;
  step_dB = 0.1;
  if B ~= 190
    error('the model has BLER curves for 190-byte packets only');
  end
  if S == 4
    coding = 1; RBs = 10;  % QPSK r = 0.7 on 10 data PRBs (MCS 9)
  elseif S == 2
    coding = 2; RBs = 12;
  else
    error('S must be 2 or 4');
  end
  noise = -95 - 10*log10(50/RBs);
  [hd0, sen0, pro0] = CV2XMode4_common(lambda, Pt, distance, Psen, step_dB, noise, coding);
  [col2, CBR] = CV2XMode4_Step2(beta, lambda, Pt, S, distance, Psen, step_dB, noise, coding, pro0);
  alpha = min(max(2*CBR - 0.4, 0), 1);                 % (22)
  if CBR < 0.2
    alpha = 0;
  end
  if alpha < 1
    col3 = CV2XMode4_Step3(beta, lambda, Pt, S, distance, Psen, step_dB, noise, coding, pro0);
  else
    col3 = zeros(size(distance));
  end
  keep = (1 - hd0) .* (1 - sen0);
  hd = hd0;                                            % (6.1)
  sen = sen0 .* (1 - hd);                              % (6.2)
  pro = pro0 .* keep;                                  % (6.3)
  col = alpha * col2 .* keep .* (1 - pro0) + (1 - alpha) * col3 .* keep .* (1 - pro0);  % (6.4), (6.5), (21)
  pdr = 1 - hd - sen - pro - col;                      % (6)
  f = fopen(out, 'w');
  fprintf(f, 'beta,lambda,pt_dbm,subchannels,bytes,distance_m,pdr,half_duplex,sensing,propagation,collision,cbr\n');
  for i = 1:numel(distance)
    fprintf(f, '%g,%g,%g,%g,%g,%g,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n', beta, lambda, Pt, S, B, ...
            distance(i), pdr(i), hd(i), sen(i), pro(i), col(i), CBR);
  end
  fclose(f);
end
